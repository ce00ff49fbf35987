import { CHECKLIST } from './checklist';
import { Check, CheckContext, CheckOptions, fail, manual } from './check-context';
import { ChecklistItem, ItemResult, StandardVersion, Verdict } from './compliance.types';
import { HttpProbe } from './http-probe';
import { serverIdentity } from './report-header';
import { RunStopped } from './run-guard';
import { AUTH_CHECKS } from './checks/auth.checks';
import { CONTRACT_CHECKS } from './checks/contract.checks';
import { HTTP_CHECKS } from './checks/http.checks';
import { ERRORS_CHECKS } from './checks/errors.checks';
import { LIFECYCLE_CHECKS } from './checks/lifecycle.checks';
import { OBSERVABILITY_CHECKS } from './checks/observability.checks';
import { STATIC_CHECKS } from './checks/static.checks';
import { TOOLS_CHECKS } from './checks/tools.checks';
import { TOOL_CALLS_CHECKS } from './checks/tool-calls.checks';
import { PROMPTS_RESOURCES_CHECKS } from './checks/prompts-resources.checks';
import { MODERN_CHECKS } from './checks/modern.checks';
import { LIMITS_CHECKS } from './checks/limits.checks';
import { CONFORMANCE_CHECKS } from './checks/conformance.checks';
import { SKILLS_CHECKS } from './checks/skills.checks';

/** The items this tool checks by itself, by id; every other item is reported for a person to judge. */
export const CHECKS: Readonly<Record<string, Check>> = {
  ...HTTP_CHECKS,
  ...AUTH_CHECKS,
  ...LIFECYCLE_CHECKS,
  ...CONTRACT_CHECKS,
  ...TOOLS_CHECKS,
  ...TOOL_CALLS_CHECKS,
  ...PROMPTS_RESOURCES_CHECKS,
  ...MODERN_CHECKS,
  ...LIMITS_CHECKS,
  ...CONFORMANCE_CHECKS,
  ...OBSERVABILITY_CHECKS,
  ...ERRORS_CHECKS,
  ...STATIC_CHECKS,
  ...SKILLS_CHECKS,
};

const NOT_AUTOMATED = 'not checked by this tool: judge it with the compliance matrix (docs/compliance.md#s18)';

/** Which checklists the server calls for: v1.2 when it answers `initialize`, v2.0 when it answers `server/discover`. */
export async function standardsOf(ctx: CheckContext): Promise<StandardVersion[]> {
  const [{ init }, discover] = await Promise.all([ctx.legacy(), ctx.discover()]);
  const found: StandardVersion[] = [];
  if (init.body?.result) found.push('1.2');
  if (discover.body?.result) found.push('2.0');
  return found;
}

/** A run's items, and the server's name and version as it stated them. */
export interface RunOutcome {
  results: ItemResult[];
  server: { name?: string; version?: string };
}

/**
 * Runs every item of the chosen checklists against the server behind `probe`, in checklist order. Once the run stops
 * (an answer over the cap, or the deadline: `probe.guard`), the item it stopped in fails with the reason and the
 * items after it are reported as not checked, with nothing more sent.
 */
export async function runCompliance(
  probe: HttpProbe,
  standards?: StandardVersion[],
  options: CheckOptions = {},
): Promise<RunOutcome> {
  const ctx = new CheckContext(probe, options);
  let chosen: StandardVersion[];
  try {
    chosen = standards ?? (await standardsOf(ctx));
  } catch (error) {
    // Stopped before the server said what it speaks: nothing to report item by item.
    if (error instanceof RunStopped) return { results: [], server: {} };
    throw error;
  }
  const results: ItemResult[] = [];
  for (const standard of chosen) {
    for (const item of CHECKLIST.filter((i) => i.standards.includes(standard))) {
      results.push({ ...itemOf(item), standard, ...(await verdictOf(ctx, item.id, standard, options)) });
    }
  }
  const server = probe.guard.stopped ? {} : await serverIdentity(ctx, chosen);
  return { results, server };
}

const itemOf = ({ id, section, level, requires }: ChecklistItem) => ({ id, section, level, requires });

async function verdictOf(
  ctx: CheckContext,
  id: string,
  standard: StandardVersion,
  options: CheckOptions,
): Promise<Verdict> {
  const stopped = ctx.probe.guard.stopped;
  if (stopped) return manual(`not checked: the run had stopped (${stopped.message})`);
  const check = CHECKS[id];
  if (options.skip?.includes(id)) return manual('not checked in this run (--skip)');
  let verdict: Verdict;
  try {
    verdict = check ? await check(ctx, standard) : manual(NOT_AUTOMATED);
  } catch (error) {
    if (!(error instanceof RunStopped)) return fail(`the check could not complete: ${(error as Error).message}`);
  }
  // A check that read a failed request as an answer (a refusal, say) is no verdict once the run stopped under it.
  // (Read again: the guard may have stopped while the check awaited.)
  const stoppedNow = ctx.probe.guard.stopped as RunStopped | undefined;
  return stoppedNow ? fail(`the run stopped during this check: ${stoppedNow.message}`) : verdict!;
}

import { CHECKLIST } from './checklist';
import { Check, CheckContext, CheckOptions, manual } from './check-context';
import { ItemResult, StandardVersion, Verdict } from './compliance.types';
import { HttpProbe } from './http-probe';
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

/** Runs every item of the chosen checklists against the server behind `probe`, in checklist order. */
export async function runCompliance(
  probe: HttpProbe,
  standards?: StandardVersion[],
  options: CheckOptions = {},
): Promise<ItemResult[]> {
  const ctx = new CheckContext(probe, options);
  const chosen = standards ?? (await standardsOf(ctx));
  const results: ItemResult[] = [];
  for (const standard of chosen) {
    for (const item of CHECKLIST.filter((i) => i.standards.includes(standard))) {
      const check = CHECKS[item.id];
      let verdict: Verdict;
      try {
        if (options.skip?.includes(item.id)) verdict = manual('not checked in this run (--skip)');
        else verdict = check ? await check(ctx, standard) : manual(NOT_AUTOMATED);
      } catch (error) {
        verdict = { status: 'fail', evidence: [`the check could not complete: ${(error as Error).message}`] };
      }
      const { id, section, level, requires } = item;
      results.push({ id, standard, section, level, requires, ...verdict });
    }
  }
  return results;
}

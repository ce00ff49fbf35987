import { Check, manual, fail, pass } from '../check-context';
import { AuthProxy } from '../conformance/auth-proxy';
import { GENERIC_SCENARIOS, runScenarios } from '../conformance/conformance-suite';

/**
 * The specification's own conformance verdicts, from the official suite the repository pins (not re-implemented
 * here): its scenarios that apply to any server, through a proxy that adds the token to the suite's requests only
 * (docs/compliance.md#safety).
 */
export const CONFORMANCE_CHECKS: Record<string, Check> = {
  'spec.conformance': async (ctx) => {
    if (!ctx.suite) return manual('the pinned conformance suite is not installed here (npm ci installs it)');
    if (Number(process.versions.node.split('.')[0]) < 22)
      return manual(`the conformance suite needs Node 22 or later (this is ${process.version}): run it with npm run`);
    const caps = await ctx.capabilities('2.0');
    const scenarios = GENERIC_SCENARIOS.filter((s) => !s.needs || caps[s.needs]).map((s) => s.scenario);
    const { guard } = ctx.probe;
    const proxy = await AuthProxy.start(ctx.probe.endpoint, ctx.probe.token, guard);
    const lines = [
      `official conformance suite ${ctx.suite.version}, through a loopback proxy adding the token (its own requests only)`,
    ];
    let ok = true;
    try {
      for (const r of await runScenarios(ctx.suite.cli, proxy.url, scenarios, guard.signal)) {
        ok &&= r.failed === 0 && r.total > 0;
        const failures = r.failures.length ? `; ${r.failures.slice(0, 3).join('; ')}` : '';
        lines.push(`${r.scenario}: ${r.passed}/${r.total} passed${failures}`);
      }
    } finally {
      await proxy.close();
    }
    const skipped = GENERIC_SCENARIOS.filter((s) => s.needs && !caps[s.needs]).map((s) => s.scenario);
    if (skipped.length) lines.push(`not run (capability not declared): ${skipped.join(', ')}`);
    return ok ? pass(...lines) : fail(...lines);
  },
};

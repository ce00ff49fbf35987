import { Check, fail, pass } from '../check-context';
import { evidence } from '../http-probe';
import { serverInfo } from './catalogue';

/** Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH with an optional pre-release and build. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The version the server states: in `serverInfo` (v1.2: `initialize`; v2.0: `server/discover`'s `_meta`). */
async function statedVersion(ctx: Parameters<Check>[0], standard: Parameters<Check>[1]) {
  const { info, answer } = await serverInfo(ctx, standard);
  return { version: info?.version, from: answer };
}

/** The version: the same in `/health` and `serverInfo`, and a semver one. */
export const CONTRACT_CHECKS: Record<string, Check> = {
  'doc.version': async (ctx, standard) => {
    const health = await ctx.probe.get('/health');
    const { version, from } = await statedVersion(ctx, standard);
    const lines = [evidence(health, { version: health.body?.version }), evidence(from, { serverInfo: { version } })];
    return typeof version === 'string' && health.body?.version === version ? pass(...lines) : fail(...lines);
  },
  'doc.semver': async (ctx, standard) => {
    const { version, from } = await statedVersion(ctx, standard);
    const line = evidence(from, { serverInfo: { version } });
    return typeof version === 'string' && SEMVER.test(version) ? pass(line) : fail(line);
  },
};

import { Check, fail, pass } from '../check-context';
import { evidence } from '../http-probe';

/** Observability, as a client sees it. */
export const OBSERVABILITY_CHECKS: Record<string, Check> = {
  'obs.request-id': async (ctx, standard) => {
    const id = 'compliance-request-id-1';
    const headers = { 'x-request-id': id };
    const ping =
      standard === '1.2'
        ? await ctx.legacyPost({ id: 'rid', method: 'ping' }, { headers })
        : await ctx.modernPost('server/discover', {}, undefined, headers);
    const echoed = ping.headers.get('x-request-id');
    const line = `X-Request-Id: ${id}; ${evidence(ping, `X-Request-Id: ${echoed ?? '(none)'}`)}`;
    return echoed === id ? pass(line) : fail(line);
  },
};

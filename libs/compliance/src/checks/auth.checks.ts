import { Check, CheckContext, fail, manual, pass } from '../check-context';
import { Exchange, evidence } from '../http-probe';

/** A `tools/call` without a token, in the caller's session: what an unauthenticated caller gets. */
const anonymousCall = (ctx: CheckContext): Promise<Exchange> =>
  ctx.legacyPost(
    { id: 'no-token', method: 'tools/call', params: { name: 'compliance_probe', arguments: {} } },
    { token: null },
  );

/** Authentication, black box: what a call without a token gets, and that a token is taken. */
export const AUTH_CHECKS: Record<string, Check> = {
  'auth.required': async (ctx) => {
    const call = await anonymousCall(ctx);
    return call.status === 401
      ? pass(`no Authorization; ${evidence(call)}`)
      : fail(`no Authorization; ${evidence(call, call.body ?? call.text)}`);
  },
  'auth.www-authenticate': async (ctx) => {
    const call = await anonymousCall(ctx);
    const challenge = call.headers.get('www-authenticate');
    const line = `no Authorization; ${evidence(call, `WWW-Authenticate: ${challenge ?? '(none)'}`)}`;
    return call.status === 401 && /^Bearer\b/i.test(challenge ?? '') ? pass(line) : fail(line);
  },
  'auth.bearer': async (ctx) => {
    if (!ctx.probe.token) return manual('no --token given: a request with a Bearer token could not be sent');
    const { init } = await ctx.legacy();
    const line = `Authorization: Bearer [redacted]; ${evidence(init)}`;
    return init.status === 200 ? pass(line) : fail(line);
  },
};

import { Check, CheckContext, LEGACY_VERSION, fail, manual, pass, passInPart } from '../check-context';
import { Exchange, HttpProbe, evidence } from '../http-probe';
import { StandardVersion } from '../compliance.types';

/** A `tools/call` without a token in the checklist's era (in the 2025 session for v1.2). */
const anonymousCall = (ctx: CheckContext, standard: StandardVersion): Promise<Exchange> =>
  standard === '1.2'
    ? ctx.legacyPost(
        { id: 'no-token', method: 'tools/call', params: { name: 'compliance_probe', arguments: {} } },
        { token: null },
      )
    : ctx.modernPost(
        'tools/call',
        { name: 'compliance_probe', arguments: {} },
        { token: null, headers: { 'mcp-name': 'compliance_probe' } },
      );

/**
 * A request that needs a caller, sent to `ctx`'s endpoint with `token`: a 2025 `initialize` for v1.2, a 2026-07-28
 * `tools/list` for v2.0 (stateless: each request is authenticated on its own).
 */
function asCaller(ctx: CheckContext, standard: StandardVersion, token: string | null): Promise<Exchange> {
  if (standard === '2.0') return ctx.modernPost('tools/list', {}, { token });
  const init = {
    jsonrpc: '2.0',
    id: 'auth-check',
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'compliance', version: '1' } },
  };
  return ctx.probe.post(init, { token, headers: { 'mcp-protocol-version': LEGACY_VERSION } });
}

const NO_KEY =
  'pass --issuer-key <file> (a private JWK of the issuer the server trusts, with its issuer and audience) to send ' +
  'expired, wrong-audience, wrong-issuer and foreign-key tokens; `npm run compliance -- <app>` does so with its own issuer';

/** Authentication, black box: what a call without a token gets, that a token is taken, and which tokens are not. */
export const AUTH_CHECKS: Record<string, Check> = {
  'auth.required': async (ctx, standard) => {
    const call = await anonymousCall(ctx, standard);
    return call.status === 401
      ? pass(`no Authorization; ${evidence(call)}`)
      : fail(`no Authorization; ${evidence(call, call.body ?? call.text)}`);
  },
  'auth.www-authenticate': async (ctx, standard) => {
    const call = await anonymousCall(ctx, standard);
    const challenge = call.headers.get('www-authenticate');
    const line = `no Authorization; ${evidence(call, `WWW-Authenticate: ${challenge ?? '(none)'}`)}`;
    return call.status === 401 && /^Bearer\b/i.test(challenge ?? '') ? pass(line) : fail(line);
  },
  'auth.bearer': async (ctx, standard) => {
    if (!ctx.probe.token) return manual('no --token given: a request with a Bearer token could not be sent');
    const answer = await asCaller(ctx, standard, ctx.probe.token);
    const line = `Authorization: Bearer [redacted]; ${evidence(answer)}`;
    return answer.status === 200 ? pass(line) : fail(line);
  },
  'auth.jwt': async (ctx, standard) => {
    if (!ctx.mint) return manual(NO_KEY);
    const { control, wrong } = await ctx.mint.negatives();
    const accepted = await asCaller(ctx, standard, control);
    const seen = [`a token of the issuer; ${evidence(accepted)}`];
    if (accepted.status !== 200)
      return fail(...seen, 'that token was refused: the key given is not one the server trusts, so nothing is shown');
    let refusedAll = true;
    for (const { what, token } of wrong) {
      const answer = await asCaller(ctx, standard, token);
      refusedAll &&= answer.status === 401;
      seen.push(`a token ${what}; ${evidence(answer)}`);
    }
    return refusedAll ? pass(...seen) : fail(...seen);
  },
  'auth.no-secrets': async (ctx, standard) => {
    // Black box, the query-string half: a token there must not authenticate. The logs half is the reviewer's.
    if (!ctx.probe.token) return manual('no --token given: a token in the query string could not be tried');
    const endpoint = new URL(ctx.probe.endpoint);
    endpoint.searchParams.set('access_token', ctx.probe.token);
    const answer = await asCaller(
      new CheckContext(new HttpProbe(endpoint, undefined, ctx.probe.guard)),
      standard,
      null,
    );
    const line = `the token as ?access_token= and no Authorization; ${evidence(answer)}`;
    return answer.status === 401
      ? passInPart(
          'that no secret is written to the logs (docs/compliance.md#s18 says where the platform masks them)',
          line,
        )
      : fail(line);
  },
};

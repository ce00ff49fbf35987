import { Check, MODERN_VERSION, fail, pass, passInPart } from '../check-context';
import { evidence } from '../http-probe';
import { errorCode } from './catalogue';

const UNKNOWN = 'compliance/no-such-method';

/** The lifecycle of both eras: `initialize` and `server/discover`, and what an unknown method gets. */
export const LIFECYCLE_CHECKS: Record<string, Check> = {
  'life.initialize': async (ctx) => {
    const { init } = await ctx.legacy();
    const r = init.body?.result;
    const ok =
      typeof r?.protocolVersion === 'string' &&
      typeof r?.capabilities === 'object' &&
      typeof r?.serverInfo?.name === 'string' &&
      typeof r?.serverInfo?.version === 'string';
    const shown = { protocolVersion: r?.protocolVersion, capabilities: r?.capabilities, serverInfo: r?.serverInfo };
    return ok ? pass(evidence(init, shown)) : fail(evidence(init, init.body ?? init.text));
  },
  'life.initialized': async (ctx) => {
    const sent = await ctx.legacyPost({ method: 'notifications/initialized' });
    return sent.status >= 200 && sent.status < 300 ? pass(evidence(sent)) : fail(evidence(sent, sent.text));
  },
  'life.negotiated': async (ctx) => {
    // What a client can see of "only negotiated capabilities": a kind not declared is not served either.
    const caps = await ctx.capabilities('1.2');
    const lines = [`declared: ${Object.keys(caps).join(', ') || 'nothing'}`];
    let ok = true;
    for (const kind of ['tools', 'prompts', 'resources'].filter((k) => !caps[k])) {
      const answer = await ctx.legacyPost({ id: `undeclared-${kind}`, method: `${kind}/list` });
      ok &&= errorCode(answer) !== undefined;
      lines.push(`${kind} not declared; ${evidence(answer, answer.body?.error ?? 'served anyway')}`);
    }
    return ok
      ? passInPart(
          'that the server sends no request for a capability the client did not declare (sampling, elicitation, roots)',
          ...lines,
        )
      : fail(...lines);
  },
  'life.unknown-method': async (ctx) => {
    const answer = await ctx.legacyPost({ id: 'unknown', method: UNKNOWN });
    const error = answer.body?.error;
    return error?.code === -32601 ? pass(evidence(answer, error)) : fail(evidence(answer, answer.body ?? answer.text));
  },
  'spec.discover': async (ctx) => {
    const discover = await ctx.discover();
    const r = discover.body?.result;
    const ok =
      Array.isArray(r?.supportedVersions) &&
      r.supportedVersions.includes(MODERN_VERSION) &&
      typeof r?.capabilities === 'object';
    const shown = { supportedVersions: r?.supportedVersions, capabilities: r?.capabilities };
    return ok ? pass(evidence(discover, shown)) : fail(evidence(discover, discover.body ?? discover.text));
  },
  'spec.unknown-method': async (ctx) => {
    const unknown = await ctx.modernPost(UNKNOWN);
    const old = await ctx.modernPost('server/discover', {}, { version: '1999-01-01' });
    const lines = [
      evidence(unknown, unknown.body?.error ?? unknown.text),
      `protocol 1999-01-01; ${evidence(old, old.body?.error ?? old.text)}`,
    ];
    const supported = old.body?.error?.data?.supported;
    const ok = unknown.body?.error?.code === -32601 && old.body?.error?.code === -32022 && Array.isArray(supported);
    return ok ? pass(...lines) : fail(...lines);
  },
};

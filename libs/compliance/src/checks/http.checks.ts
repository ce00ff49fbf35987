import { Check, CheckContext, fail, notApplicable, pass } from '../check-context';
import { evidence } from '../http-probe';

const PROBE_ORIGIN = 'https://compliance-probe.invalid';

/** A request from a foreign `Origin`: its status, and what CORS header came back. */
async function foreignOrigin(ctx: CheckContext): Promise<{ line: string; status: number; allow: string | null }> {
  const foreign = await ctx.probe.post(
    { jsonrpc: '2.0', id: 'origin', method: 'ping' },
    { headers: { origin: PROBE_ORIGIN, 'mcp-protocol-version': '2025-11-25' } },
  );
  const allow = foreign.headers.get('access-control-allow-origin');
  const line = `Origin: ${PROBE_ORIGIN}; ${evidence(foreign, allow ? `Access-Control-Allow-Origin: ${allow}` : '')}`;
  return { line, status: foreign.status, allow };
}

/** Transport and HTTP: the endpoint, its headers, `/health`, CORS and `Origin`. */
export const HTTP_CHECKS: Record<string, Check> = {
  'http.transport': async (ctx) => {
    const { init } = await ctx.legacy();
    const http =
      init.status === 200 && init.body?.result
        ? undefined
        : await ctx.discover().then((d) => (d.status === 200 && d.body?.result ? d : undefined));
    const lines = [
      http
        ? evidence(http, 'Streamable HTTP answers')
        : evidence(init, init.body?.result ? 'Streamable HTTP answers initialize' : (init.body?.error ?? init.text)),
    ];
    let works = Boolean(http) || Boolean(init.status === 200 && init.body?.result);
    if (ctx.stdio) {
      // The command started the server: the other transport the item names is tried too.
      const { message, problem } = await ctx.stdio();
      const info = message?.result?.serverInfo;
      lines.push(
        info ? `stdio: initialize -> ${JSON.stringify({ serverInfo: info })}` : `stdio: ${problem ?? 'no result'}`,
      );
      works ||= Boolean(info);
    }
    return works ? pass(...lines) : fail(...lines);
  },
  'http.post-mcp': async (ctx) => {
    const { init } = await ctx.legacy();
    return init.status === 200 && init.body?.result
      ? pass(evidence(init, { result: Object.keys(init.body.result) }))
      : fail(evidence(init, init.body ?? init.text));
  },
  'http.accept': async (ctx) => {
    const { init } = await ctx.legacy();
    const sent = 'Accept: application/json, text/event-stream';
    // Answered, in one of the two types the client said it takes.
    const type = init.headers.get('content-type') ?? '';
    const accepted = /^(application\/json|text\/event-stream)\b/i.test(type);
    return init.status === 200 && accepted
      ? pass(`${sent}; ${evidence(init, type)}`)
      : fail(`${sent}; ${evidence(init, `Content-Type: ${type || '(none)'}`)}`);
  },
  'http.protocol-version': async (ctx) => {
    const ok = await ctx.legacyPost({ id: 'pv-ok', method: 'ping' });
    const bad = await ctx.legacyPost(
      { id: 'pv-bad', method: 'ping' },
      { headers: { 'mcp-protocol-version': '1999-01-01' } },
    );
    const lines = [
      `MCP-Protocol-Version: 2025-11-25; ${evidence(ok)}`,
      `MCP-Protocol-Version: 1999-01-01; ${evidence(bad, bad.body?.error ?? '')}`,
    ];
    return ok.status === 200 && bad.status === 400 ? pass(...lines) : fail(...lines);
  },
  'http.session-id': async (ctx) => {
    const { init, sessionId } = await ctx.legacy();
    if (!sessionId) return notApplicable(`${evidence(init)}: no MCP-Session-Id: the server keeps no sessions`);
    const ping = await ctx.legacyPost({ id: 'session', method: 'ping' });
    const line = `MCP-Session-Id from initialize; ${evidence(ping)}`;
    return ping.status === 200 ? pass(line) : fail(line);
  },
  'http.health': async (ctx) => {
    const health = await ctx.probe.get('/health');
    const json = typeof health.body === 'object' && health.body !== null;
    return health.status === 200 && json ? pass(evidence(health, health.body)) : fail(evidence(health, health.text));
  },
  'http.cors': async (ctx) => {
    const { line, allow } = await foreignOrigin(ctx);
    return allow !== '*' ? pass(line) : fail(line);
  },
  'http.origin': async (ctx) => {
    const { line, status } = await foreignOrigin(ctx);
    return status === 403 ? pass(line) : fail(line);
  },
  'http.cors-origin': async (ctx) => {
    const { line, status, allow } = await foreignOrigin(ctx);
    return status === 403 && allow !== '*' ? pass(line) : fail(line);
  },
};

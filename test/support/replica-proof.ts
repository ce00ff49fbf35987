import { RoundRobinProxy } from './round-robin-proxy';
import { RunningServer } from './server-process';
import { managementUrlOf } from './management-url';
import { sleep } from './wait';

/**
 * Evidence that a session's traffic crossed replicas, read from the round-robin proxy's log (which replica got
 * each request) and from the replicas' metrics: a test asserts on it rather than assuming round-robin did it.
 */

/** The upstream holding the session's open GET stream, waiting for the client to open it. */
export async function streamHolder(proxy: RoundRobinProxy, session: string, ms = 5_000): Promise<number> {
  const until = Date.now() + ms;
  for (;;) {
    const open = proxy.log.filter((e) => e.method === 'GET' && e.session === session && e.status === 200 && !e.done);
    if (open.length === 1) return open[0].upstream!;
    if (Date.now() > until) throw new Error(`session ${session} has ${open.length} open GET streams, not one`);
    await sleep(25);
  }
}

/** The upstreams that got the session's calls of `tool`, in order. */
export function callRoutes(proxy: RoundRobinProxy, session: string, tool: string): number[] {
  return proxy.log.filter((e) => e.session === session && e.tool === tool).map((e) => e.upstream!);
}

/**
 * Each answer the client sent for the session (to an elicitation or sampling request), with the upstream of the
 * call it answers: the session's last tools/call before it (the clients here call one tool at a time).
 */
export function answerRoutes(
  proxy: RoundRobinProxy,
  session: string,
): { tool: string; call: number; answer: number }[] {
  const routes: { tool: string; call: number; answer: number }[] = [];
  let call: { tool: string; upstream: number } | undefined;
  for (const e of proxy.log.filter((x) => x.session === session)) {
    if (e.rpc === 'tools/call') call = { tool: e.tool!, upstream: e.upstream! };
    if (e.rpc === 'answer' && call) routes.push({ tool: call.tool, call: call.upstream, answer: e.upstream! });
  }
  return routes;
}

/** The upstream of the session's last request of JSON-RPC method `rpc`. */
export function lastRoute(proxy: RoundRobinProxy, session: string, rpc: string): number | undefined {
  return proxy.log.filter((e) => e.session === session && e.rpc === rpc).at(-1)?.upstream;
}

/** `mcp_tool_calls_total` of `tool` with `status`, summed over the replicas still running. */
export async function toolCalls(replicas: RunningServer[], tool: string, status: string): Promise<number> {
  let n = 0;
  for (const r of replicas.filter((x) => x.process.exitCode === null && x.process.signalCode === null)) {
    const scrape = await (await fetch((await managementUrlOf(r)).href)).text();
    for (const line of scrape.split('\n')) {
      if (!line.startsWith('mcp_tool_calls_total{')) continue;
      if (line.includes(`tool="${tool}"`) && line.includes(`status="${status}"`)) n += Number(line.split(' ').at(-1));
    }
  }
  return n;
}

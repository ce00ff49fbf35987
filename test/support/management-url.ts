import { RunningServer } from './server-process';

/**
 * The management listener's `/metrics` address of a server started with `MCP_METRICS_PORT=0`, read from its log
 * line "Prometheus metrics on <url>" (it may come a moment after "listening on").
 */
export async function managementUrlOf(server: RunningServer): Promise<URL> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = /Prometheus metrics on (http:\/\/[^\s"]+)/.exec((server.stdout?.() ?? '') + server.stderr())?.[1];
    if (found) return new URL(found);
    if (Date.now() > deadline) throw new Error(`no metrics address in the log:\n${server.stdout?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

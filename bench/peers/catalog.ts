// The 50 tools every peer serves: the same names, titles, descriptions, input schemas and annotations as our fixture
// (bench/fixture/tools.ts), written the way each framework documents them, with Zod. `npm run bench` compares each
// peer's advertised input schemas with ours before measuring it (bench/lib/peers.mjs).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

export const PEER_TOOL_COUNT = 50;

export interface PeerTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: { readOnlyHint: boolean; openWorldHint: boolean };
  /** The tool's answer as text (what each framework wraps into a `text` content item). */
  run(args: Record<string, unknown>): string;
}

const annotations = { readOnlyHint: true, openWorldHint: false };

const echo: PeerTool = {
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given text unchanged.',
  input: z.strictObject({ text: z.string().max(1000).describe('Text to echo back.') }),
  annotations,
  run: (args) => String(args.text),
};

function lookup(i: number): PeerTool {
  const n = String(i).padStart(2, '0');
  return {
    name: `lookup_record_${n}`,
    title: `Look up record set ${n}`,
    description: `Finds records of set ${n} by id or by a free-text query, optionally limited in number.`,
    input: z.strictObject({
      id: z.string().max(64).describe('Record id.').optional(),
      query: z.string().max(200).describe('Words to search for.').optional(),
      limit: z.int().min(1).max(100).describe('Most records to return (default 10).').optional(),
    }),
    annotations,
    run: (args) => JSON.stringify({ set: n, query: args, records: [] }),
  };
}

export const PEER_TOOLS: PeerTool[] = [echo, ...Array.from({ length: PEER_TOOL_COUNT - 1 }, (_, i) => lookup(i + 1))];

/** What the two official SDKs' `McpServer.registerTool` takes (1.x and v2 name it the same way). */
interface ToolRegistrar {
  registerTool(
    name: string,
    config: { title: string; description: string; inputSchema: z.ZodObject; annotations: PeerTool['annotations'] },
    run: (args: Record<string, unknown>) => { content: { type: 'text'; text: string }[] },
  ): unknown;
}

/** Registers the 50 tools on an official SDK server (1.x or v2), as both SDKs' guides write a tool. */
export function registerPeerTools<S extends ToolRegistrar>(server: S): S {
  for (const tool of PEER_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args) => ({ content: [{ type: 'text', text: tool.run(args) }] }),
    );
  }
  return server;
}

/** The port to listen on: PORT, or (PORT=0) a free one, for frameworks that do not report the port they bound. */
export async function freePort(): Promise<number> {
  const wanted = Number(process.env.PORT ?? 0);
  if (wanted) return wanted;
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
}

/** Tells the bench the peer is up (like bench/fixture/serve.ts) and stops it on SIGTERM/SIGINT. */
export function ready(port: number, stop: () => Promise<unknown>): void {
  process.stdout.write(`READY ${port}\n`);
  const exit = () =>
    void Promise.resolve()
      .then(stop)
      .finally(() => process.exit(0));
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
}

/** Listens on PORT (0 = ephemeral) on loopback and reports READY with the bound port. */
export async function listen(
  server: Server<typeof IncomingMessage, typeof ServerResponse>,
  stop: () => Promise<unknown> = () => new Promise((ok) => server.close(ok)),
): Promise<void> {
  await new Promise<void>((ok) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', ok));
  ready((server.address() as AddressInfo).port, stop);
}

export function fail(error: Error): never {
  process.stderr.write(`peer failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
}

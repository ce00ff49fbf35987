// Peer: fastmcp with its `httpStream` transport as its README starts it: `server.start({ transportType: 'httpStream',
// httpStream: { port } })`, stateful sessions (the default; `stateless: false`), SSE answers (the default;
// `enableJsonResponse: false`), tools added with `addTool` and Zod parameters.
import { FastMCP } from 'fastmcp';
import { PEER_TOOLS, fail, freePort, ready } from './catalog';

async function main(): Promise<void> {
  const server = new FastMCP({ name: 'bench-peer-fastmcp', version: '1.0.0' });
  for (const tool of PEER_TOOLS) {
    server.addTool({
      name: tool.name,
      description: tool.description,
      parameters: tool.input,
      annotations: { title: tool.title, ...tool.annotations },
      execute: async (args) => tool.run(args),
    });
  }
  // fastmcp does not report the port it bound, so the port is chosen first (PORT, or a free one).
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } });
  ready(port, () => server.stop());
}

main().catch(fail);

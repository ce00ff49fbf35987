// Peer: the official SDK 1.x (`@modelcontextprotocol/sdk`), stateful Streamable HTTP as its docs and
// `simpleStreamableHttp.ts` example set it up: `createMcpExpressApp()` (Express with JSON body parsing and
// DNS-rebinding protection on loopback) and the per-session routes of sdk-v1-sessions.ts.
import { createServer } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { fail, listen } from './catalog';
import { mountSdkV1Sessions } from './sdk-v1-sessions';

const app = createMcpExpressApp();
const sessions = mountSdkV1Sessions(app, 'bench-peer-sdk-v1');

// What `app.listen(port, '127.0.0.1')` does, on PORT (0 = ephemeral) with READY <port> for the bench.
const server = createServer(app);
listen(server, async () => {
  await sessions.close();
  await new Promise((ok) => server.close(ok));
}).catch(fail);

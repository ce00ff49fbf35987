// Heap-under-load probe (run by run.mjs with --expose-gc): boots the bench MCP app in this process with
// the production logs on, sends tools/call over loopback HTTP on one session, and measures heapUsed after
// gc at 5,000 calls (warm) and at 45,000. RSS over a short run moves with the allocator and the JIT; a
// leak shows in the settled heap. Prints one JSON line on stdout.
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const require = createRequire(import.meta.url);
const root = resolve(fileURLToPath(import.meta.url), '../..');
const { startMcpApp } = require(resolve(root, 'dist/bench/bench/fixture/mcp.app.js'));

const WARM = 5_000;
const MEASURED = 40_000;
const CONCURRENCY = 32;
const app = await startMcpApp(0);
const port = app.getHttpServer().address().port;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(body, headers = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? ok(res.headers) : fail(new Error(`answered ${res.statusCode}`))));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const init = await post(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-heap', version: '1.0.0' } },
  }),
);
const session = { 'mcp-session-id': init['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
let next = 2;
async function calls(n) {
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      sent++;
      await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: next++,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'hello' } },
        }),
        session,
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
async function settledHeapMB() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

await calls(WARM);
const beforeMB = await settledHeapMB();
await calls(MEASURED);
const afterMB = await settledHeapMB();
await app.close();
agent.destroy();
console.log(
  JSON.stringify({
    warmCalls: WARM,
    measuredCalls: MEASURED,
    beforeMB: +beforeMB.toFixed(1),
    afterMB: +afterMB.toFixed(1),
    growthMB: +(afterMB - beforeMB).toFixed(1),
  }),
);
process.exit(0);

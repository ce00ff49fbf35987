// Idle sessions memory probe (run by run.mjs with --expose-gc): boots the bench MCP app in this
// process, measures heapUsed after gc, opens N sessions with `initialize` over loopback HTTP
// (CONCURRENCY at a time), gc again, measures again. Prints one JSON line on stdout.
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const require = createRequire(import.meta.url);
const root = resolve(fileURLToPath(import.meta.url), '../..');
const { startMcpApp } = require(resolve(root, 'dist/bench/bench/fixture/mcp.app.js'));
// An internal: the bench counts live sessions directly.
const { McpSessionManager } = require(resolve(root, 'dist/bench/libs/mcp/src/sessions/mcp-session.manager.js'));

const SESSIONS = Number(process.env.BENCH_IDLE_SESSIONS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_IDLE_CONCURRENCY ?? 50);
const WARMUP = CONCURRENCY;

const app = await startMcpApp(0);
const port = app.getHttpServer().address().port;
const manager = app.get(McpSessionManager);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
});

function initialize() {
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
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 && res.headers['mcp-session-id']
            ? ok()
            : fail(new Error(`initialize answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

async function openSessions(n) {
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      await initialize();
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, worker));
}

async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage();
}

// Warm up: JIT, the agent's sockets, Express and Nest lazies; these sessions count in the baseline.
await openSessions(WARMUP);
const before = await settledHeap();
const sessionsBefore = manager.size;
const t0 = performance.now();
await openSessions(SESSIONS);
const elapsedMs = performance.now() - t0;
const after = await settledHeap();
const sessionsAfter = manager.size;

const addedBytes = after.heapUsed - before.heapUsed;
process.stdout.write(
  JSON.stringify({
    sessions: SESSIONS,
    concurrency: CONCURRENCY,
    liveSessionsBefore: sessionsBefore,
    liveSessionsAfter: sessionsAfter,
    heapUsedBeforeMB: before.heapUsed / 2 ** 20,
    heapUsedAfterMB: after.heapUsed / 2 ** 20,
    addedMB: addedBytes / 2 ** 20,
    bytesPerSession: Math.round(addedBytes / SESSIONS),
    rssAddedMB: (after.rss - before.rss) / 2 ** 20,
    initializePerSec: Math.round((SESSIONS / elapsedMs) * 1000),
  }) + '\n',
);
agent.destroy();
await app.close();
process.exit(0);

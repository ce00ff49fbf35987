// A quick look while working on the per-request path (not the bench of record): the ceiling, `mcp` (bare), `mcp-logs`
// and `mcp-prod` (the production configuration) under tools/call at 16 connections, interleaved, BENCH_ROUNDS times.
//   tsc -p bench/tsconfig.json && BENCH_ROUNDS=2 node bench/quick.mjs
// BENCH_AB_SERVE=<another build's dist/bench/bench/fixture/serve.js> adds that build's production server to the same
// rounds (`prod-b`), to compare a change with the build before it (copy dist/bench away before rebuilding).
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, newId, openSession, post } from './lib/mcp-client.mjs';
import { load, startCeiling, startServer } from './lib/servers.mjs';
import { ROUNDS, TMP, productionEnv } from './lib/settings.mjs';

mkdirSync(TMP, { recursive: true });
const c = Number(process.env.BENCH_CONNECTIONS ?? 16);
// MCP_HTTP_ADAPTER=fastify: every server, the ceiling included, on Nest's Fastify adapter.
const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
const on = { MCP_HTTP_ADAPTER: adapter };
const issuer = await startIssuer();
const sink = await startOtlpSink();
const log = resolve(TMP, 'quick-prod.log');
writeFileSync(log, '');
const bare = await startServer('mcp', 'mcp', { ...on, NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' });
const logs = await startServer('mcp-logs', 'mcp', { ...on, NODE_ENV: 'development', BENCH_AUTH: 'off' });
const prod = await startServer('mcp-prod', 'mcp', {
  ...on,
  ...productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url }),
});
const other = process.env.BENCH_AB_SERVE;
const prodB = other
  ? await startServer(
      'mcp-prod-b',
      'mcp',
      { ...on, ...productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url }) },
      other,
    )
  : undefined;
const bearer = { authorization: `Bearer ${issuer.token}` };
const sessions = [];
const prodSessions = [];
for (let i = 0; i < c; i++) sessions.push(await openSession(bare.url));
for (let i = 0; i < c; i++) prodSessions.push(await openSession(prod.url, bearer));
const prodBSessions = [];
for (let i = 0; prodB && i < c; i++) prodBSessions.push(await openSession(prodB.url, bearer));
const logSessions = [];
for (let i = 0; i < c; i++) logSessions.push(await openSession(logs.url));
const call = await post(`${bare.url}/mcp`, CALL_BODY(newId()), { ...BASE_HEADERS, 'mcp-session-id': sessions[0] });
const ceiling = await startCeiling(call.text, call.text, adapter);
const fake = Array.from({ length: c }, () => randomUUID());
try {
  for (let round = 0; round < ROUNDS; round++) {
    const ceil = await load(ceiling, '/mcp', c, CALL_BODY('[<id>]'), fake, 'call');
    const b = await load(bare, '/mcp', c, CALL_BODY('[<id>]'), sessions, 'call');
    const l = await load(logs, '/mcp', c, CALL_BODY('[<id>]'), logSessions, 'call');
    const p = await load(prod, '/mcp', c, CALL_BODY('[<id>]'), prodSessions, 'call', { ...BASE_HEADERS, ...bearer });
    const pb =
      prodB &&
      (await load(prodB, '/mcp', c, CALL_BODY('[<id>]'), prodBSessions, 'call', { ...BASE_HEADERS, ...bearer }));
    const pct = (r) =>
      `${Math.round(r.reqPerSec)} req/s (${Math.round((r.reqPerSec / ceil.reqPerSec) * 100)}%, p99 ${r.latencyMs.p99} ms, ${Math.round(1e6 / r.reqPerServerCpuSec)} us cpu/req, non200 ${r.non200}, mism ${r.mismatches})`;
    console.log(
      `ceiling ${Math.round(ceil.reqPerSec)} req/s ${Math.round(1e6 / ceil.reqPerServerCpuSec)} us cpu/req | mcp ${pct(b)} | logs ${Math.round((l.reqPerSec / b.reqPerSec) * 100)}% of mcp, ${Math.round(1e6 / l.reqPerServerCpuSec)} us cpu/req | prod ${pct(p)}${pb ? ` | prod-b ${pct(pb)}` : ''}`,
    );
  }
} finally {
  await Promise.all([bare.stop(), logs.stop(), prod.stop(), ceiling.stop(), prodB?.stop()]);
  await sink.stop();
  await issuer.stop();
}

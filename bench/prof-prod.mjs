// CPU profile of the production configuration (#14's starting point): the bench fixture as `mcp-prod` runs it
// (auth, logs to a file, metrics, tracing exported to a local OTLP sink) under --cpu-prof, loaded with tools/call at
// 16 connections for BENCH_DURATION seconds; prints the profile summary.
//   tsc -p bench/tsconfig.json && BENCH_CPU_PROF=1 node bench/prof-prod.mjs
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, openSession } from './lib/mcp-client.mjs';
import { load, startServer } from './lib/servers.mjs';
import { ROOT, TMP, productionEnv } from './lib/settings.mjs';

const dir = resolve(TMP, 'prof', 'mcp-prod');
if (process.env.BENCH_CPU_PROF !== '1') throw new Error('run with BENCH_CPU_PROF=1');
rmSync(dir, { recursive: true, force: true });
mkdirSync(TMP, { recursive: true });
const issuer = await startIssuer();
const sink = await startOtlpSink();
const log = resolve(TMP, 'prof-prod.log');
writeFileSync(log, '');
// BENCH_PROF_CONFIG=bare: the same fixture with auth, logs and the tracing SDK off (the `mcp` server of run.mjs).
// BENCH_PROF_CONFIG=logs: the same with the JSON logs on (the `mcp-logs` server of run.mjs).
const config = process.env.BENCH_PROF_CONFIG ?? 'prod';
const bare = config === 'bare' || config === 'logs';
// MCP_HTTP_ADAPTER=fastify: the same on Nest's Fastify adapter.
const adapter = { MCP_HTTP_ADAPTER: process.env.MCP_HTTP_ADAPTER ?? 'express' };
const server = await startServer('mcp-prod', 'mcp', {
  ...(bare
    ? { NODE_ENV: 'development', BENCH_AUTH: 'off', ...(config === 'bare' ? { BENCH_LOGS: 'off' } : {}) }
    : productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url })),
  ...adapter,
});
const bearer = bare ? {} : { authorization: `Bearer ${issuer.token}` };
const sessions = [];
for (let i = 0; i < 16; i++) sessions.push(await openSession(server.url, bearer));
const r = await load(server, '/mcp', 16, CALL_BODY('[<id>]'), sessions, 'call', { ...BASE_HEADERS, ...bearer });
console.log(`tools/call x16: ${Math.round(r.reqPerSec)} req/s, server cpu ${Math.round(r.serverCpuPct)}%`);
await server.stop();
await sink.stop();
await issuer.stop();
const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
spawnSync(process.execPath, [resolve(ROOT, 'bench/profile-summary.mjs'), resolve(dir, file), '30', '', '3'], {
  stdio: 'inherit',
});

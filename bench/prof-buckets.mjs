// Where a request's CPU goes, by package: the ceiling, our bare server and our production configuration on one adapter
// (MCP_HTTP_ADAPTER, default express), each under --cpu-prof and loaded with tools/call at 16 connections for
// BENCH_DURATION seconds; prints, per server, req/s, server CPU per request and that CPU split by package (node_modules
// package, our library folder, Node's own modules), in microseconds per request. For comparing the servers of one run.
//   tsc -p bench/tsconfig.json && node bench/prof-buckets.mjs
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, newId, openSession, post } from './lib/mcp-client.mjs';
import { load, startPinned } from './lib/servers.mjs';
import { DURATION, NODE_FLAGS, SERVE, TMP, productionEnv } from './lib/settings.mjs';
import { profileBuckets } from './lib/profile-buckets.mjs';

const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
const TOP = Number(process.env.BENCH_PROF_TOP ?? 25);
const root = resolve(TMP, 'prof', 'buckets');
rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
const issuer = await startIssuer();
const sink = await startOtlpSink();
const log = resolve(TMP, 'prof-buckets.log');
writeFileSync(log, '');

const profiled = (name, which, env) =>
  startPinned(name, [...NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${resolve(root, name)}`, SERVE, which], {
    MCP_HTTP_ADAPTER: adapter,
    ...env,
  });

async function measure(name, which, env, sessionsFor, headers) {
  const server = await profiled(name, which, env);
  const sessions = await sessionsFor(server);
  const r = await load(server, '/mcp', 16, CALL_BODY('[<id>]'), sessions, 'call', headers);
  await server.stop();
  return { name, r, ...profileBuckets(resolve(root, name), DURATION) };
}

const bearer = { authorization: `Bearer ${issuer.token}` };
const open = (auth) => async (server) => {
  const s = [];
  for (let i = 0; i < 16; i++) s.push(await openSession(server.url, auth));
  return s;
};
const results = [];
results.push(
  await measure(
    'bare',
    'mcp',
    { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' },
    open({}),
    BASE_HEADERS,
  ),
);
// The ceiling serves our own answer verbatim, as in the bench.
const probe = await startPinned('probe', [...NODE_FLAGS, SERVE, 'mcp'], {
  NODE_ENV: 'development',
  BENCH_AUTH: 'off',
  BENCH_LOGS: 'off',
});
const [sid] = await open({})(probe);
const call = await post(`${probe.url}/mcp`, CALL_BODY(newId()), { ...BASE_HEADERS, 'mcp-session-id': sid });
await probe.stop();
const callFile = resolve(TMP, 'prof-buckets-call.json');
writeFileSync(callFile, call.text);
results.unshift(
  await measure(
    'ceiling',
    'ceiling',
    { NODE_ENV: 'production', BENCH_CEILING_CALL_FILE: callFile, BENCH_CEILING_LIST_FILE: callFile },
    async () => Array.from({ length: 16 }, () => randomUUID()),
    BASE_HEADERS,
  ),
);
results.push(
  await measure(
    'prod',
    'mcp',
    productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url }),
    open(bearer),
    { ...BASE_HEADERS, ...bearer },
  ),
);
await sink.stop();
await issuer.stop();

console.log(
  `adapter ${adapter}, tools/call x16, under --cpu-prof (slower than the bench); us of server CPU per request`,
);
for (const { name, r, counts, busy } of results) {
  const cpu = 1e6 / r.reqPerServerCpuSec;
  console.log(`\n${name}: ${Math.round(r.reqPerSec)} req/s, ${Math.round(cpu)} us/req`);
  for (const [b, c] of [...counts].sort((x, y) => y[1] - x[1]).slice(0, TOP))
    console.log(`${((c / busy) * cpu).toFixed(1).padStart(8)}  ${b}`);
}

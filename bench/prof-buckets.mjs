// Where a request's CPU goes, by package: the ceiling, our bare server and our production configuration on one adapter
// (MCP_HTTP_ADAPTER, default express), each under --cpu-prof and loaded with tools/call at 16 connections for
// BENCH_DURATION seconds; prints, per server, req/s, server CPU per request and that CPU split by package (node_modules
// package, our library folder, Node's own modules), in microseconds per request. For comparing the servers of one run.
//   tsc -p bench/tsconfig.json && node bench/prof-buckets.mjs
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, newId, openSession, post } from './lib/mcp-client.mjs';
import { load, startPinned } from './lib/servers.mjs';
import { DURATION, SERVE, TMP, productionEnv } from './lib/settings.mjs';

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
  startPinned(name, ['--cpu-prof', `--cpu-prof-dir=${resolve(root, name)}`, SERVE, which], {
    MCP_HTTP_ADAPTER: adapter,
    ...env,
  });

/**
 * Self time of each profile node, bucketed by where its code lives: only the load's own seconds (the last DURATION s
 * before the server stopped, its last half second left out), idle left out.
 */
function buckets(dir) {
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const p = JSON.parse(readFileSync(resolve(dir, file), 'utf8'));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  const from = p.endTime - (DURATION + 0.5) * 1e6;
  const to = p.endTime - 0.5e6;
  let t = p.startTime;
  let busy = 0;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i];
    if (t < from || t > to) return;
    const n = nodes.get(id);
    if (n.callFrame.functionName === '(idle)') return;
    busy++;
    const b = bucketOf(n.callFrame);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  });
  return { counts, busy };
}

function bucketOf({ url, functionName }) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /libs\/mcp\/src\/([^/]+)/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (url.startsWith('node:'))
    return `node: ${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  if (!url) return `native: ${functionName}`;
  return url.split('/').slice(-2).join('/');
}

async function measure(name, which, env, sessionsFor, headers) {
  const server = await profiled(name, which, env);
  const sessions = await sessionsFor(server);
  const r = await load(server, '/mcp', 16, CALL_BODY('[<id>]'), sessions, 'call', headers);
  await server.stop();
  return { name, r, ...buckets(resolve(root, name)) };
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
const probe = await startPinned('probe', [SERVE, 'mcp'], {
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

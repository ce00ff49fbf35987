// A/B of two builds of the production configuration (a look while working, not the bench of record): this build's
// server and another build's (BENCH_AB_SERVE, e.g. a copy of dist/bench taken before the change) take turns under
// tools/call at 16 connections, BENCH_ROUNDS times, in alternating order; each round prints both and their ratio,
// the end the median ratio. On a machine whose speed swings, a ratio within a round is what can be compared.
//   cp -r dist/bench .bench/ab-old && <change> && tsc -p bench/tsconfig.json &&
//   BENCH_AB_SERVE=$PWD/.bench/ab-old/bench/fixture/serve.js BENCH_ROUNDS=8 BENCH_DURATION=3 node bench/ab.mjs
// BENCH_AB_ENV='K=V,K=V' sets variables on a only (a setting's A/B; without BENCH_AB_SERVE both run this build);
// BENCH_AB_ENV_BOTH the same on both (e.g. 'MCP_STORE=redis,MCP_REDIS_PREFIX=bench:ab:' to compare the Redis path).
// BENCH_AB_NODE_FLAGS='--allocation-site-pretenuring': Node or V8 flags for a only, after the image's (a runtime flag's
// A/B; V8 takes the last of two opposite flags).
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, openSession } from './lib/mcp-client.mjs';
import { load, startServer } from './lib/servers.mjs';
import { ROUNDS, TMP, envSettings, productionEnv } from './lib/settings.mjs';

const other = process.env.BENCH_AB_SERVE;
const onlyA = envSettings(process.env.BENCH_AB_ENV);
const both = envSettings(process.env.BENCH_AB_ENV_BOTH);
const flagsA = (process.env.BENCH_AB_NODE_FLAGS ?? '').split(' ').filter(Boolean);
if (!other && !process.env.BENCH_AB_ENV && flagsA.length === 0)
  throw new Error(
    'set BENCH_AB_SERVE (another build), BENCH_AB_ENV (a setting) or BENCH_AB_NODE_FLAGS (a runtime flag)',
  );
mkdirSync(TMP, { recursive: true });
const c = Number(process.env.BENCH_CONNECTIONS ?? 16);
const issuer = await startIssuer();
const sink = await startOtlpSink();
const env = (name) => {
  const logFile = resolve(TMP, `ab-${name}.log`);
  writeFileSync(logFile, '');
  return { ...productionEnv({ jwksUri: issuer.jwksUri, logFile, otlpUrl: sink.url }), ...both };
};
const servers = {
  a: await startServer('ab-a', 'mcp', { ...env('a'), ...onlyA }, undefined, flagsA),
  b: await startServer('ab-b', 'mcp', env('b'), other),
};
const headers = { ...BASE_HEADERS, authorization: `Bearer ${issuer.token}` };
const sessions = { a: [], b: [] };
for (const k of ['a', 'b'])
  for (let i = 0; i < c; i++)
    sessions[k].push(await openSession(servers[k].url, { authorization: headers.authorization }));
const ratios = [];
const line = (r) =>
  `${Math.round(r.reqPerSec)} req/s ${Math.round(1e6 / r.reqPerServerCpuSec)} us cpu/req p99 ${r.latencyMs.p99} ms`;
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ['b', 'a'] : ['a', 'b'];
    const r = {};
    for (const k of order) r[k] = await load(servers[k], '/mcp', c, CALL_BODY('[<id>]'), sessions[k], 'call', headers);
    const ratio = r.a.reqPerSec / r.b.reqPerSec;
    ratios.push(ratio);
    console.log(`a ${line(r.a)} | b ${line(r.b)} | a/b ${ratio.toFixed(3)}`);
  }
  ratios.sort((x, y) => x - y);
  console.log(`median a/b ${ratios[Math.floor(ratios.length / 2)].toFixed(3)} over ${ratios.length} rounds`);
} finally {
  await Promise.all([servers.a.stop(), servers.b.stop()]);
  await sink.stop();
  await issuer.stop();
}

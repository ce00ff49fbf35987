// Where a production call's server CPU goes beside the bare call's, on the event loop and off it, on one adapter
// (MCP_HTTP_ADAPTER, default express). Three loads of tools/call at 16 connections, interleaved for BENCH_ROUNDS
// rounds: the bare server and the production configuration as fast as they go, and the bare server held to the
// production configuration's rate (what the slower pace alone costs: fewer requests per turn of the event loop, the
// client woken for more of them). For each, from /proc and a probe loaded into the server (bench/lib/probe.mjs; the
// server's code is unchanged): CPU per request by thread (the event loop in user and kernel mode, V8's helper threads,
// libuv's pool), the event loop's pauses for garbage collection, its utilisation, and the write system calls and bytes
// per request. Then one profiled load of each splits the event loop's CPU by package (as bench/prof-buckets.mjs does),
// and the difference between the production configuration and the bare server at its rate is printed so that it adds
// up. Medians of the rounds; a report, not the bench of record.
//   tsc -p bench/tsconfig.json && MCP_HTTP_ADAPTER=fastify node bench/account.mjs
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, openSession } from './lib/mcp-client.mjs';
import { runChild, startPinned } from './lib/servers.mjs';
import { DURATION, LOAD, NODE_FLAGS, ROOT, ROUNDS, SERVE, TMP, WARMUP, productionEnv } from './lib/settings.mjs';
import { profileBuckets } from './lib/profile-buckets.mjs';

const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
const C = 16;
const dir = resolve(TMP, 'account');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const PROBE = resolve(ROOT, 'bench/lib/probe.mjs');
const issuer = await startIssuer();
const sink = await startOtlpSink();
const log = resolve(dir, 'prod.log');
writeFileSync(log, '');
const bearer = { authorization: `Bearer ${issuer.token}` };
const prodEnv = productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url });
const prodHeaders = { ...BASE_HEADERS, ...bearer };
const CONFIGS = {
  bare: { env: { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' }, headers: BASE_HEADERS, auth: {} },
  prod: { env: prodEnv, headers: prodHeaders, auth: bearer },
  // The production configuration less one of its features, for what each costs at the margin. Authentication cannot
  // be off under NODE_ENV=production (the module refuses to start), so that one runs in development.
  'prod - tracing': { env: { ...prodEnv, BENCH_TRACING: 'off' }, headers: prodHeaders, auth: bearer },
  'prod - logs': { env: { ...prodEnv, BENCH_LOGS: 'off' }, headers: prodHeaders, auth: bearer },
  'prod - auth': { env: { ...prodEnv, NODE_ENV: 'development', BENCH_AUTH: 'off' }, headers: BASE_HEADERS, auth: {} },
  // BENCH_ACCOUNT=tracing: what tracing's cost is made of instead (bench/fixture/serve.ts): spans recorded and ended
  // only; batched and dropped; batched, encoded and dropped.
  'prod, spans only': { env: { ...prodEnv, BENCH_TRACING: 'record' }, headers: prodHeaders, auth: bearer },
  'prod, batched': { env: { ...prodEnv, BENCH_TRACING: 'batch' }, headers: prodHeaders, auth: bearer },
  'prod, encoded': { env: { ...prodEnv, BENCH_TRACING: 'encode' }, headers: prodHeaders, auth: bearer },
  // BENCH_ACCOUNT=downstream: the production configuration with a downstream client declared (never called).
  'prod + downstream': { env: { ...prodEnv, BENCH_DOWNSTREAM: 'on' }, headers: prodHeaders, auth: bearer },
};
const LESS =
  process.env.BENCH_ACCOUNT === 'tracing'
    ? ['prod - tracing', 'prod, spans only', 'prod, batched', 'prod, encoded']
    : process.env.BENCH_ACCOUNT === 'downstream'
      ? ['prod + downstream']
      : ['prod - tracing', 'prod - logs', 'prod - auth'];

async function start(name, config, profiled = false) {
  const file = name.replace(/\W+/g, '-');
  const probeFile = resolve(dir, `${file}.probe.json`);
  const prof = profiled ? ['--cpu-prof', `--cpu-prof-dir=${resolve(dir, `${file}.prof`)}`] : [];
  const server = await startPinned(name, ['--import', PROBE, ...NODE_FLAGS, ...prof, SERVE, 'mcp'], {
    MCP_HTTP_ADAPTER: adapter,
    BENCH_PROBE_FILE: probeFile,
    ...CONFIGS[config].env,
  });
  const sessions = [];
  for (let i = 0; i < C; i++) sessions.push(await openSession(server.url, CONFIGS[config].auth));
  return { ...server, config, sessions, probeFile, profDir: resolve(dir, `${file}.prof`) };
}

const TICK = 100; // USER_HZ: /proc reports CPU time in 1/100 s on Linux
/** CPU seconds per thread group: the event loop (the main thread) in user and kernel mode, the others by name. */
function threads(pid) {
  const out = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [user, sys] = [Number(f[11]) / TICK, Number(f[12]) / TICK];
    const add = (key, s) => (out[key] = (out[key] ?? 0) + s);
    if (tid === String(pid)) {
      add('event loop, user', user);
      add('event loop, kernel', sys);
    } else
      add(
        /^V8 /.test(name) ? 'V8 helper threads (GC, compiler)' : /libuv/.test(name) ? 'libuv pool' : `other: ${name}`,
        user + sys,
      );
  }
  return out;
}
function faults(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}
function io(pid) {
  const text = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => l.split(': '))
      .map(([k, v]) => [k, Number(v)]),
  );
}
async function probe(server) {
  const before = existsSync(server.probeFile) ? readFileSync(server.probeFile, 'utf8') : '';
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 200; i++) {
    await new Promise((ok) => setTimeout(ok, 10));
    const now = existsSync(server.probeFile) ? readFileSync(server.probeFile, 'utf8') : '';
    if (now && now !== before) return JSON.parse(now);
  }
  throw new Error(`${server.config}: no probe answer`);
}
function snapshot(server) {
  const otlp = { requests: sink.requests(), bytes: sink.bytes() };
  const pid = server.child.pid;
  return { threads: threads(pid), io: io(pid), faults: faults(pid), probe: probe(server), otlp };
}

/** One load; per request: CPU by thread group (us), GC pause (us), writes and bytes written; event-loop use. */
async function measure(server, rate) {
  const cfg = { url: server.url, path: '/mcp', connections: C, duration: DURATION, warmup: WARMUP };
  Object.assign(cfg, { body: CALL_BODY('[<id>]'), headers: CONFIGS[server.config].headers, sessions: server.sessions });
  Object.assign(cfg, { verify: 'call', ...(rate ? { rate } : {}) });
  let a;
  const r = await runChild(1, [LOAD, JSON.stringify(cfg)], `load ${server.config}`, (line) => {
    if (line === 'PHASE measure') a = snapshot(server);
  });
  const b = snapshot(server);
  const [pa, pb] = [await a.probe, await b.probe];
  const n = r.requestsTotal;
  const us = (s) => (s * 1e6) / n;
  const cpu = {};
  for (const key of new Set([...Object.keys(a.threads), ...Object.keys(b.threads)]))
    cpu[key] = us((b.threads[key] ?? 0) - (a.threads[key] ?? 0));
  const gc = {};
  for (const kind of Object.keys(pb.gc.byKind)) gc[kind] = ((pb.gc.byKind[kind] - (pa.gc.byKind[kind] ?? 0)) * 1e3) / n;
  const active = pb.active - pa.active;
  return {
    reqPerSec: r.reqPerSec,
    p99: r.latencyMs.p99,
    cpu,
    total: Object.values(cpu).reduce((x, y) => x + y, 0),
    gc,
    gcTotal: Object.values(gc).reduce((x, y) => x + y, 0),
    elu: active / (active + pb.idle - pa.idle),
    writes: (b.io.syscw - a.io.syscw) / n,
    reads: (b.io.syscr - a.io.syscr) / n,
    bytesOut: (b.io.wchar - a.io.wchar) / n,
    faults: (b.faults - a.faults) / n,
    otlpBytes: (b.otlp.bytes - a.otlp.bytes) / n,
    otlpExports: (b.otlp.requests - a.otlp.requests) / n,
  };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
function medianOf(runs) {
  const pick = (get) => median(runs.map(get));
  const keys = (get) => [...new Set(runs.flatMap((r) => Object.keys(get(r))))];
  const m = { runs: runs.length };
  for (const k of [
    'reqPerSec',
    'p99',
    'total',
    'gcTotal',
    'elu',
    'writes',
    'reads',
    'bytesOut',
    'faults',
    'otlpBytes',
    'otlpExports',
  ])
    m[k] = pick((r) => r[k]);
  m.cpu = Object.fromEntries(keys((r) => r.cpu).map((k) => [k, pick((r) => r.cpu[k] ?? 0)]));
  m.gc = Object.fromEntries(keys((r) => r.gc).map((k) => [k, pick((r) => r.gc[k] ?? 0)]));
  return m;
}

const servers = {};
for (const name of ['bare', 'prod', ...LESS]) servers[name] = await start(name, name);
const runs = { bare: [], prod: [], paced: [], ...Object.fromEntries(LESS.map((k) => [k, []])) };
try {
  for (let round = 0; round < ROUNDS; round++) {
    runs.bare.push(await measure(servers.bare));
    const p = await measure(servers.prod);
    runs.prod.push(p);
    runs.paced.push(await measure(servers.bare, Math.round(p.reqPerSec)));
    for (const name of LESS) runs[name].push(await measure(servers[name]));
  }
} finally {
  for (const server of Object.values(servers)) await server.stop();
}
const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, medianOf(v)]));

// The event loop's CPU split by package: one profiled load of each (profiling slows both alike), the shares applied
// to the unprofiled event-loop CPU per request above.
const shares = {};
let profiledRate;
for (const [name, config] of [
  ['prod-prof', 'prod'],
  ['bare-prof', 'bare'],
]) {
  const server = await start(name, config, true);
  try {
    profiledRate = Math.round((await measure(server, profiledRate)).reqPerSec);
  } finally {
    await server.stop();
  }
  shares[config] = profileBuckets(server.profDir, DURATION);
}
await sink.stop();
await issuer.stop();

const f1 = (x) => x.toFixed(1).padStart(7);
console.log(
  `adapter ${adapter}: tools/call x${C}, ${ROUNDS} rounds of ${DURATION} s, medians; server CPU per request in us`,
);
const COLUMNS = ['bare', 'prod', 'paced', ...LESS];
console.log(`\ncolumns: ${COLUMNS.map((c) => (c === 'paced' ? "bare at prod's rate" : c)).join(' | ')}`);
const row = (label, get) => console.log(`${label.padEnd(40)}${COLUMNS.map((c) => f1(get(m[c]))).join(' ')}`);
row('req/s (thousands)', (x) => x.reqPerSec / 1000);
row('p99 (ms)', (x) => x.p99);
row('server CPU per request, all threads', (x) => x.total);
for (const k of [...new Set([...Object.keys(m.bare.cpu), ...Object.keys(m.prod.cpu)])].sort())
  row(`  ${k}`, (x) => x.cpu[k] ?? 0);
row('GC pauses of the event loop (in user)', (x) => x.gcTotal);
for (const k of Object.keys(m.prod.gc).sort()) row(`  ${k}`, (x) => x.gc[k] ?? 0);
row('event-loop utilisation (%)', (x) => x.elu * 100);
row('write system calls per request', (x) => x.writes);
row('read system calls per request', (x) => x.reads);
row('bytes written per request', (x) => x.bytesOut);
row('page faults per request', (x) => x.faults);
row('OTLP bytes exported per request', (x) => x.otlpBytes);
row('OTLP exports per 1,000 requests', (x) => x.otlpExports * 1000);

// The difference, split: the pace; then, against the bare server at the same pace, the kernel, the helper threads and
// the event loop's user time by package (its profile shares, GC pauses among them).
const diff = m.prod.total - m.bare.total;
console.log(
  `\nproduction - bare: ${diff.toFixed(1)} us per request (${m.prod.total.toFixed(1)} - ${m.bare.total.toFixed(1)})`,
);
const pace = m.paced.total - m.bare.total;
console.log(`${f1(pace)}  the slower pace alone (the bare server at the production configuration's rate)`);
const keysAll = [...new Set([...Object.keys(m.prod.cpu), ...Object.keys(m.paced.cpu)])];
for (const k of keysAll.filter((k) => !k.startsWith('event loop')))
  console.log(`${f1((m.prod.cpu[k] ?? 0) - (m.paced.cpu[k] ?? 0))}  ${k}`);
const loop = (x) => x.cpu['event loop, user'] + x.cpu['event loop, kernel'];
const [userP, userB] = [loop(m.prod), loop(m.paced)];
console.log(`${f1(userP - userB)}  the event loop (user and kernel), by package: its profile's shares of it`);
const split = (s, user) => {
  const out = new Map();
  for (const [b, c] of s.counts) out.set(b, (c / s.busy) * user);
  return out;
};
const sp = split(shares.prod, userP);
const sb = split(shares.bare, userB);
const lines = [...new Set([...sp.keys(), ...sb.keys()])]
  .map((b) => [b, (sp.get(b) ?? 0) - (sb.get(b) ?? 0)])
  .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
let shown = 0;
for (const [b, d] of lines.slice(0, 25)) {
  shown += d;
  console.log(`        ${f1(d)}  ${b}`);
}
console.log(`        ${f1(userP - userB - shown)}  the rest (${Math.max(0, lines.length - 25)} more)`);
console.log('\neach feature at the margin (the production configuration less the one without it):');
let margins = 0;
for (const name of LESS) {
  const d = m.prod.total - m[name].total;
  margins += d;
  console.log(`${f1(d)}  ${name.replace(/^prod,? [-+]? ?/, '')}`);
}
console.log(`${f1(diff - margins)}  not any one of them alone (production - bare - the three margins)`);
writeFileSync(resolve(dir, `account-${adapter}.json`), JSON.stringify({ adapter, m, runs }, null, 2));

// Two replicas against one: tools/call x16 through a round-robin proxy without affinity (round-robin-proxy.mjs),
// every store in Redis (MCP_STORE=redis) under one key prefix shared by the replicas. Sessions are opened through
// the proxy, so a session created on one replica is used on the other (read from Redis, budgets leased from it);
// a check before the load proves it. "One" is the same proxy in front of one replica, so the proxy's cost is in
// both numbers and the ratio compares the replicas only.
//
// Where things run, and why: this machine has 2 cores. A core per replica would leave none for the proxy and
// autocannon, which would then take CPU from the replicas they measure, and more from "two" (the proxy's work per
// request is the same, the replicas' is split). So both replicas are pinned to core 0 (the server core of every
// other row) and the proxy beside autocannon to core 1: each set-up gets the same one core of server CPU, and the
// ratio is what serving from two processes costs (ideal 100%), not the speed-up more cores would give. Redis is a
// system service and stays unpinned. The CPU each process used while measured is reported, to show which core
// was the limit: a Node proxy costs about as much per request as a replica, so core 1 can be the limit, and then
// the req/s ratio says only that two replicas keep up. Calls per replica CPU-second compare the replicas anyway.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import Redis from 'ioredis';
import { BASE_HEADERS, CALL_BODY, newId, openSession, post } from './mcp-client.mjs';
import { dropRedisPrefix } from './redis.mjs';
import { CLK_TCK, PIN, cpuSeconds, machineBusyPct, pinned, runChild, startServer, stopChild } from './servers.mjs';
import { DURATION, LOAD, NODE, RESULTS, ROOT, ROUNDS, WARMUP } from './settings.mjs';

const CONNECTIONS = 16;
const PROXY = resolve(ROOT, 'bench/lib/round-robin-proxy.mjs');
// A core is "the limit" when the processes pinned to it used at least this share of it while measured.
const SATURATED_PCT = 90;
const SETUP =
  'both replicas pinned to core 0 (they share it), the round-robin proxy and autocannon to core 1, Redis unpinned; ' +
  'one and two get the same one core of server CPU, so two/one is the cost of serving from two processes that ' +
  'share sessions through Redis (ideal 100%), not a speed-up: a core per replica plus one for the proxy and load ' +
  'generator (and Redis) needs 4 or more cores';
const r1 = (v) => (v === undefined ? undefined : Math.round(v * 10) / 10);

/** The round-robin proxy in front of `servers`, pinned to core 1 beside autocannon. */
function startProxy(servers) {
  const [cmd, args] = pinned(1, [NODE, PROXY, ...servers.map((s) => s.url)]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((ok, fail) => {
    child.on('exit', (code) => fail(new Error(`round-robin proxy exited with ${code}:\n${err}`)));
    child.stdout.on('data', (d) => {
      const m = /READY (\d+)/.exec((out += d));
      if (!m) return;
      const url = `http://127.0.0.1:${m[1]}`;
      const counts = async () => (await (await fetch(`${url}/__proxy/counts`)).json()).counts;
      ok({ url, child, counts, stop: () => stopChild(child) });
    });
  });
}

/** The pid of the Redis server the replicas use, when it runs on this machine (for its CPU share), else undefined. */
async function redisPid() {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const pid = Number(/^process_id:(\d+)/m.exec(await redis.info('server'))?.[1]);
    return existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis')
      ? pid
      : undefined;
  } finally {
    redis.disconnect();
  }
}

/**
 * A session opened through the two-replica proxy, then tools/call on it until both replicas have answered one:
 * proof that a session created on one replica is served by the other. Throws otherwise.
 */
async function crossReplicaCheck(proxy) {
  const session = await openSession(proxy.url);
  const answeredBy = [];
  for (let i = 0; i < 4; i++) {
    const res = await post(`${proxy.url}/mcp`, CALL_BODY(newId()), { ...BASE_HEADERS, 'mcp-session-id': session });
    if (res.status !== 200 || JSON.parse(res.text).result?.content?.[0]?.text !== 'hello')
      throw new Error(`replicas: tools/call through the proxy answered ${res.status}: ${res.text}`);
    answeredBy.push(Number(res.headers.get('x-bench-upstream')));
  }
  if (!answeredBy.includes(0) || !answeredBy.includes(1))
    throw new Error(`replicas: one session's calls were all answered by one replica (${answeredBy})`);
  return { callsAnsweredBy: answeredBy };
}

/** CPU seconds all cores have spent running something so far (from /proc/stat), or undefined off Linux. */
function machineBusySeconds() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user, nice, system, irq, softirq: not idle, iowait, steal (the hypervisor's), guest (already in user).
    return (f[0] + f[1] + f[2] + f[5] + f[6]) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run through `proxy`, with the CPU share (% of one core) of every process involved while measured,
 * and `others`: what the rest of the machine used meanwhile (processes outside the bench take CPU from both cores,
 * pinned or not).
 */
async function measure(proxy, sessions, pids) {
  const cfg = {
    url: proxy.url,
    path: '/mcp',
    connections: CONNECTIONS,
    duration: DURATION,
    warmup: WARMUP,
    body: CALL_BODY('[<id>]'),
    headers: BASE_HEADERS,
    sessions,
    verify: 'call',
  };
  const sample = () => ({
    ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)])),
    machine: machineBusySeconds(),
  });
  let start;
  let countsAtStart;
  const r = await runChild(1, [LOAD, JSON.stringify(cfg)], `autocannon through the proxy`, (line) => {
    if (line !== 'PHASE measure') return;
    start = { cpu: sample(), at: performance.now() };
    countsAtStart = proxy.counts();
  });
  const seconds = (performance.now() - start.at) / 1000;
  const end = sample();
  const pct = (k) =>
    end[k] !== undefined && start.cpu[k] !== undefined ? ((end[k] - start.cpu[k]) / seconds) * 100 : undefined;
  const cpuPct = Object.fromEntries([...Object.keys(pids), 'machine'].map((k) => [k, pct(k)]));
  // Answers per replica while measured (the proxy's counts also include the warm-up; subtract them).
  const [before, after] = [await countsAtStart, await proxy.counts()];
  return { ...r, cpuPct, answeredBy: after.map((n, i) => n - before[i]) };
}

/** The median round of a set-up (by req/s), in the block's shape. */
function pick(list, replicas) {
  const sorted = [...list].sort((x, y) => x.reqPerSec - y.reqPerSec);
  const r = sorted[Math.floor(sorted.length / 2)];
  const { a, b, proxy, redis, machine } = r.cpuPct;
  // "one" is replica a alone; b idles beside it on core 0 (its own background work is shown as idleReplica).
  const replicasPct = (a ?? 0) + (replicas === 2 ? (b ?? 0) : 0);
  const core1Pct = (proxy ?? 0) + r.clientCpuPct;
  const ours = (a ?? 0) + (b ?? 0) + (proxy ?? 0) + r.clientCpuPct + (redis ?? 0);
  return {
    replicas,
    reqPerSec: Math.round(r.reqPerSec),
    p50Ms: r.latencyMs.p50,
    p99Ms: r.latencyMs.p99,
    non200: r.non200,
    errors: r.errors,
    mismatches: r.mismatches,
    answeredBy: r.answeredBy.slice(0, replicas),
    // Calls per CPU-second of the replicas: what a call costs them whichever core was the limit.
    reqPerReplicaCpuSec: replicasPct ? Math.round((r.reqPerSec * 100) / replicasPct) : undefined,
    // % of one core: replicas (core 0), proxy and autocannon (core 1), Redis, and everything else on the machine.
    cpuPct: {
      replicas: r1(replicasPct),
      ...(replicas === 1 ? { idleReplica: r1(b) } : {}),
      proxy: r1(proxy),
      autocannon: r1(r.clientCpuPct),
      redis: r1(redis),
      others: machine === undefined ? undefined : r1(Math.max(0, machine - ours)),
    },
    limitedBy:
      replicasPct >= SATURATED_PCT
        ? 'core 0 (the replicas)'
        : core1Pct >= SATURATED_PCT
          ? 'core 1 (proxy and autocannon)'
          : 'neither core saturated (waits on Redis, or CPU taken by other processes)',
    roundsReqPerSec: list.map((x) => Math.round(x.reqPerSec)),
  };
}

/** Runs the scenario and returns the `replicas` block. */
export async function runReplicas() {
  const busyPctBefore = r1(await machineBusyPct());
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const env = {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
    BENCH_LOGS: 'off',
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: prefix,
  };
  // Both on core 0 (startServer pins every server there): see the header for why.
  const a = await startServer('mcp-replica-a', 'mcp', env);
  const b = await startServer('mcp-replica-b', 'mcp', env);
  const proxies = [];
  try {
    const one = await startProxy([a]);
    proxies.push(one);
    const two = await startProxy([a, b]);
    proxies.push(two);
    const check = await crossReplicaCheck(two);
    const setups = { one: { proxy: one, sessions: [] }, two: { proxy: two, sessions: [] } };
    for (const setup of Object.values(setups))
      for (let i = 0; i < CONNECTIONS; i++) setup.sessions.push(await openSession(setup.proxy.url));
    const pids = { a: a.child.pid, b: b.child.pid, redis: await redisPid() };
    // Alternating set-ups round by round: a noisy neighbour hits both sides of the ratio alike.
    const runs = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round++)
      for (const [key, { proxy, sessions }] of Object.entries(setups))
        runs[key].push(await measure(proxy, sessions, { ...pids, proxy: proxy.child.pid }));
    const oneR = pick(runs.one, 1);
    const twoR = pick(runs.two, 2);
    const clean = (r) => !r.non200 && !r.errors && !r.mismatches;
    // Round robin without affinity: each replica answered about half of the measured calls.
    const balanced = twoR.answeredBy.every((n) => n >= 0.4 * (twoR.answeredBy[0] + twoR.answeredBy[1]));
    return {
      connections: CONNECTIONS,
      store: 'redis, one MCP_REDIS_PREFIX for both replicas (removed afterwards)',
      proxy: 'bench/lib/round-robin-proxy.mjs: Node, round robin, no affinity, keep-alive upstream connections',
      setup: SETUP,
      machine: { cpu: cpus()[0]?.model, cores: cpus().length, pinned: PIN, busyPctBefore },
      crossReplicaCheck: check,
      one: oneR,
      two: twoR,
      ratio: +(twoR.reqPerSec / oneR.reqPerSec).toFixed(2),
      // Whichever core limited the req/s: what a call costs the replicas, two against one (ideal 1, below is a cost).
      cpuEfficiencyRatio: oneR.reqPerReplicaCpuSec && +(twoR.reqPerReplicaCpuSec / oneR.reqPerReplicaCpuSec).toFixed(2),
      valid: clean(oneR) && clean(twoR) && balanced,
    };
  } finally {
    await Promise.all(proxies.map((p) => p.stop()));
    await Promise.all([a.stop(), b.stop()]);
    await dropRedisPrefix(prefix);
  }
}

const line = (label, r) =>
  `  ${label}: ${r.reqPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.reqPerReplicaCpuSec} calls per ` +
  `replica CPU-second; CPU (% of a core) replicas ${r.cpuPct.replicas}, proxy ${r.cpuPct.proxy}, autocannon ` +
  `${r.cpuPct.autocannon}, redis ${r.cpuPct.redis ?? '?'}, other processes ${r.cpuPct.others ?? '?'}; ` +
  `limit: ${r.limitedBy}; rounds [${r.roundsReqPerSec.join(', ')}]` +
  (r.replicas === 2 ? `; answered ${r.answeredBy.join(' / ')}` : '');

export function printReplicas(block) {
  if (!block) return;
  if (block.skipped) return console.log(`\nreplicas: skipped (${block.skipped})`);
  const pct = (x) => (x === undefined ? '?' : `${Math.round(x * 100)}%`);
  console.log(
    `\nreplicas (tools/call x${block.connections}, MCP_STORE=redis, shared prefix, round-robin proxy without affinity):\n` +
      `${line('one replica ', block.one)}\n${line('two replicas', block.two)}\n` +
      `  two / one: ${pct(block.ratio)} of the req/s, ${pct(block.cpuEfficiencyRatio)} of the calls per replica ` +
      `CPU-second${block.valid ? '' : ' INVALID (non-200, errors or unbalanced)'}\n` +
      `  note (${block.machine.cores} cores${block.machine.pinned ? '' : ', NOT pinned'}, ` +
      `${block.machine.busyPctBefore ?? '?'}% busy before): ${block.setup}`,
  );
}

/** BENCH_ONLY=replicas: merge the block into the existing results file. */
export function mergeReplicas(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...prev, replicas: block }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (replicas block merged)`);
}

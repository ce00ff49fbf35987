// Two replicas against one: tools/call through nginx with the compose file's own nginx.conf (round robin, no
// affinity; only the upstream addresses, listen port and pid path rewritten), with every store in Redis. Sessions
// are opened through nginx, so consecutive requests of a session land on different replicas (the session is read
// from Redis, budgets leased from it). On this 2-core machine both replicas are pinned to core 0 and nginx plus
// autocannon to core 1: the same server CPU in both set-ups, so the ratio measures what running as two replicas
// costs (ideal 100%), not the speed-up more cores would give.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { CALL_BODY, openSession } from './mcp-client.mjs';
import { dropRedisPrefix } from './redis.mjs';
import { PIN, load, startServer } from './servers.mjs';
import { RESULTS, ROOT, ROUNDS, TMP } from './settings.mjs';

const CONNECTIONS = 16;
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function freePort() {
  const probe = createServer();
  return new Promise((ok) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    }),
  );
}

/** nginx with deploy/compose/nginx.conf in front of `servers`, pinned to core 1 beside autocannon. */
async function startNginx(name, servers) {
  const port = await freePort();
  const dir = resolve(TMP, `nginx-${name}`);
  mkdirSync(dir, { recursive: true });
  const upstream = servers.map((s) => `    server ${new URL(s.url).host};`).join('\n');
  const conf = readFileSync(resolve(ROOT, 'deploy/compose/nginx.conf'), 'utf8')
    .replace(/upstream mcp \{[^}]*\}/, `upstream mcp {\n${upstream}\n    keepalive 64;\n  }`)
    .replace(/\blisten\s+8080;/, `listen 127.0.0.1:${port};`)
    .replace(/^pid\s+[^;]+;/m, `pid ${resolve(dir, 'nginx.pid')};`);
  writeFileSync(resolve(dir, 'nginx.conf'), conf);
  const args = ['-p', dir, '-c', resolve(dir, 'nginx.conf'), '-e', resolve(dir, 'error.log'), '-g', 'daemon off;'];
  const child = PIN ? spawn('taskset', ['-c', '1', NGINX, ...args]) : spawn(NGINX, args);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    if (res) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start (installed? the test command installs nginx-light)`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((ok) => child.once('exit', ok) && child.kill('SIGQUIT')),
  };
}

/** Runs the scenario and returns the `replicas` results block. */
export async function runReplicas() {
  if (spawnSync(NGINX, ['-v']).error) return { skipped: 'nginx is not installed (apt-get install nginx-light)' };
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const env = {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
    BENCH_LOGS: 'off',
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: prefix,
  };
  const a = await startServer('mcp-replica-a', 'mcp', env);
  const b = await startServer('mcp-replica-b', 'mcp', env);
  const lbs = [];
  try {
    const one = await startNginx('one', [a]);
    lbs.push(one);
    const two = await startNginx('two', [a, b]);
    lbs.push(two);
    const setups = {
      one: { lb: one, sessions: [] },
      two: { lb: two, sessions: [] },
    };
    for (const setup of Object.values(setups))
      for (let i = 0; i < CONNECTIONS; i++) setup.sessions.push(await openSession(setup.lb.url));
    const runs = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, setup] of Object.entries(setups)) {
        // load() reads the CPU of one process: replica a's (both replicas share core 0 anyway).
        const r = await load(
          { url: setup.lb.url, child: a.child },
          '/mcp',
          CONNECTIONS,
          CALL_BODY('[<id>]'),
          setup.sessions,
          'call',
        );
        runs[key].push(r);
      }
    }
    const pick = (key) => {
      const list = runs[key];
      const r = list.find((x) => x.reqPerSec === median(list.map((y) => y.reqPerSec)));
      return {
        reqPerSec: Math.round(r.reqPerSec),
        p50Ms: r.latencyMs.p50,
        p99Ms: r.latencyMs.p99,
        non200: r.non200,
        errors: r.errors,
        roundsReqPerSec: list.map((x) => Math.round(x.reqPerSec)),
      };
    };
    const oneR = pick('one');
    const twoR = pick('two');
    return {
      connections: CONNECTIONS,
      setup:
        'replicas pinned to core 0 (both share it), nginx with deploy/compose/nginx.conf and autocannon on core 1; MCP_STORE=redis; sessions opened through nginx (no affinity)',
      one: oneR,
      two: twoR,
      ratio: +(twoR.reqPerSec / oneR.reqPerSec).toFixed(2),
      valid: [oneR, twoR].every((r) => !r.non200 && !r.errors),
    };
  } finally {
    await Promise.all(lbs.map((lb) => lb.stop()));
    await Promise.all([a.stop(), b.stop()]);
    await dropRedisPrefix(prefix);
  }
}

export function printReplicas(block) {
  if (!block) return;
  if (block.skipped) return console.log(`\nreplicas: skipped (${block.skipped})`);
  console.log(
    `\nreplicas (tools/call x${block.connections} through nginx, Redis store, one core for the replicas): ` +
      `one ${block.one.reqPerSec} req/s (p50 ${block.one.p50Ms} ms, p99 ${block.one.p99Ms} ms), ` +
      `two ${block.two.reqPerSec} req/s (p50 ${block.two.p50Ms} ms, p99 ${block.two.p99Ms} ms): ` +
      `two = ${Math.round(block.ratio * 100)}% of one${block.valid ? '' : ' INVALID (non-200 or errors)'}`,
  );
}

/** BENCH_ONLY=replicas: merge the block into the existing results file. */
export function mergeReplicas(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...prev, replicas: block }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (replicas block merged)`);
}

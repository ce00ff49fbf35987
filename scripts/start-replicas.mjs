// `npm run start:replicas -- [app] [N]`: N replicas (default 2) of an app on Redis, behind a round-robin proxy on
// HOST:PORT (default 127.0.0.1:3000), with no session affinity: scale-out tried on one machine. Each replica
// listens on its own ephemeral port and metrics port; sessions, limits and messages are shared through Redis
// (REDIS_URL, default redis://127.0.0.1:6379). With no issuer configured they all trust the local development
// issuer (one key in .mcp-dev/), so one token works on every replica. Ctrl-C (or SIGTERM to this process) stops
// them all. A replica that dies while serving (kill -9, a crash) is named with its exit code or signal and taken
// out of the rotation; the others keep serving. It is not restarted: what the deployment does without it (its
// tasks handed on, its sessions served by the others) is what this command lets you watch; restarting is the
// orchestrator's job in production. When the last replica dies, the command exits 1.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, request } from 'node:http';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from './lib/node-flags.mjs';
import { defaultApp, entryOf, readCli } from './lib/projects.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const count = args.find((a) => /^\d+$/.test(a));
const names = args.filter((a) => a !== count);
const replicas = Number(count ?? 2);
if (names.length > 1 || names.some((a) => a.startsWith('-')) || replicas < 1 || replicas > 16) {
  fail('usage: npm run start:replicas -- [app] [N]   (N from 1 to 16, default 2)');
}

const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
await reachable(redisUrl).catch(() =>
  fail(`no Redis at ${redisUrl.host}: start one (redis-server --port ${redisUrl.port || 6379}) or set REDIS_URL`),
);

// The same build `npm start` makes (skipped when nothing changed); start.mjs also checks the name.
const start = join(root, 'scripts/start.mjs');
const built = spawnSync(process.execPath, [start, '--build-only', ...names], { stdio: ['ignore', 2, 2] });
if (built.status !== 0) process.exit(built.status ?? 1);
const cli = readCli(root);
const entry = entryOf(root, cli, names[0] ?? defaultApp(cli));

/** The replicas serving now, in start order: a replica that dies leaves the rotation. */
const upstreams = [];
const children = [];
let stopping = false;
let proxy;
for (let i = 1; i <= replicas; i++) upstreams.push(await startReplica(i));
proxy = createServer((req, res) => {
  if (upstreams.length === 0) return void res.writeHead(502).end();
  // Round robin, request by request: a session's next request may land on any replica.
  proxy.turn = ((proxy.turn ?? -1) + 1) % upstreams.length;
  const target = upstreams[proxy.turn].url;
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  req.pipe(upstream);
});
const host = process.env.HOST ?? '127.0.0.1';
proxy.listen(Number(process.env.PORT ?? 3000), host, () => {
  const { port } = proxy.address();
  process.stderr.write(
    `${replicas} replicas on Redis (${redisUrl.host}) behind http://${host}:${port}/mcp, round robin\n`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stopAll);

/** One replica on an ephemeral port, resolved with `{ i, child, url }` once it listens. */
function startReplica(i) {
  const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', MCP_METRICS_PORT: '0', MCP_STORE: 'redis' };
  env.REDIS_URL = redisUrl.href;
  env.OTEL_RESOURCE_ATTRIBUTES ??= `service.instance.id=replica-${i}`;
  const child = spawn(process.execPath, [...NODE_FLAGS, entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  children.push(child);
  return new Promise((ok) => {
    let seen = '';
    let replica;
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      if (replica) return;
      seen += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (!m) return;
      replica = { i, child, url: new URL(m[1]) };
      process.stderr.write(`replica ${i} (pid ${child.pid}) serving on ${replica.url.origin}\n`);
      ok(replica);
    });
    child.on('exit', (code, signal) => {
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (stopping) return void process.stderr.write(`replica ${i} exited with ${code ?? signal}\n`);
      if (!replica) {
        // It never served: the app does not start (a broken build, a bad setting), so neither will the others.
        process.stderr.write(`replica ${i} (pid ${child.pid}) exited before it listened (${how})\n`);
        return stopAll(1);
      }
      died(replica, how);
    });
  });
}

/** A serving replica died (kill -9, a crash): named, taken out of the rotation; the others keep serving. */
function died(replica, how) {
  const at = upstreams.indexOf(replica);
  if (at >= 0) upstreams.splice(at, 1);
  const left = upstreams.length;
  process.stderr.write(
    `replica ${replica.i} (pid ${replica.child.pid}, ${replica.url.origin}) died: ${how}; not restarted, ` +
      `${left} of ${replicas} replica${replicas === 1 ? '' : 's'} still serving\n`,
  );
  if (left === 0) {
    process.stderr.write('no replica left: stopping\n');
    stopAll(1);
  }
}

function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  proxy?.close();
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (alive.length === 0) process.exit(typeof code === 'number' ? code : 0);
  let left = alive.length;
  for (const child of alive) {
    child.once('exit', () => --left === 0 && process.exit(typeof code === 'number' ? code : 0));
    child.kill('SIGTERM');
  }
}

function reachable(url) {
  return new Promise((ok, no) => {
    const socket = createConnection(Number(url.port || 6379), url.hostname);
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => ok(socket.end()));
    socket.once('error', no);
  });
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

import { freePort } from './free-port';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real Redis topologies for the store tests, from the machine's redis-server: a Sentinel watching the machine's
 * Redis (127.0.0.1:6379) under a master name of its own, a three-node Cluster on free ports, and a Redis that
 * speaks only TLS with a certificate from a throwaway CA (openssl). Each lives in a
 * temporary folder and is stopped (and the folder removed) by `stop()`.
 */
export interface RedisTopology {
  /** `host:port` addresses: the sentinel, the cluster's nodes, or the TLS port. */
  nodes: string[];
  /** The TLS Redis's CA certificate (PEM file), for NODE_EXTRA_CA_CERTS and redis-cli --cacert. */
  caFile?: string;
  stop(): Promise<void>;
}

export async function startSentinel(masterName: string): Promise<RedisTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sentinel-'));
  const port = await freePort();
  const conf = join(dir, 'sentinel.conf');
  // A long down-after: the sentinel only reports the master; it must never fail the machine's Redis over.
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${masterName} 127.0.0.1 6379 1`,
      `sentinel down-after-milliseconds ${masterName} 600000`,
      '',
    ].join('\n'),
  );
  const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  await until(() => cli(port, ['SENTINEL', 'get-master-addr-by-name', masterName]).includes('6379'), 'sentinel');
  return { nodes: [`127.0.0.1:${port}`], stop: () => stopAll([child], dir) };
}

export async function startCluster(): Promise<RedisTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-cluster-'));
  const ports: number[] = [];
  // Each node also listens on port + 10000 (the cluster bus): both must be free.
  while (ports.length < 3) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if ((await portFree(port)) && (await portFree(port + 10_000)) && !ports.includes(port)) ports.push(port);
  }
  const children = ports.map((port) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
      ],
      { stdio: 'ignore' },
    ),
  );
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  for (const port of ports) await until(() => cli(port, ['PING']) === 'PONG', `cluster node ${port}`);
  const created = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (created.status !== 0) {
    await stopAll(children, dir);
    throw new Error(`redis-cli --cluster create failed:\n${created.stdout}\n${created.stderr}`);
  }
  for (const port of ports) {
    await until(() => cli(port, ['CLUSTER', 'INFO']).includes('cluster_state:ok'), `cluster state on ${port}`);
  }
  return { nodes, stop: () => stopAll(children, dir) };
}

export async function startTlsRedis(): Promise<RedisTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-redis-tls-'));
  const f = (name: string): string => join(dir, name);
  writeFileSync(f('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  for (const args of [
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=mcp-test-ca',
    ],
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('redis.key'),
      '-out',
      f('redis.csr'),
      '-subj',
      '/CN=localhost',
    ],
    [
      'x509',
      '-req',
      '-in',
      f('redis.csr'),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('redis.pem'),
      '-days',
      '1',
      '-extfile',
      f('ext.cnf'),
    ],
  ]) {
    const run = spawnSync('openssl', args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
  }
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      ...[
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      ...['--tls-cert-file', f('redis.pem'), '--tls-key-file', f('redis.key'), '--tls-ca-cert-file', f('ca.pem')],
      ...['--tls-auth-clients', 'no'],
    ],
    { stdio: 'ignore' },
  );
  await until(() => cli(port, ['--tls', '--cacert', f('ca.pem'), 'PING']) === 'PONG', 'TLS redis');
  return { nodes: [`localhost:${port}`], caFile: f('ca.pem'), stop: () => stopAll([child], dir) };
}

/** redis-cli against a loopback port; its output trimmed ('' when it fails). */
export function cli(port: number, args: string[]): string {
  const run = spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 5_000 });
  return run.status === 0 ? run.stdout.trim() : '';
}

async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopAll(children: ChildProcess[], dir: string): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((ok) => {
          if (child.exitCode !== null || child.signalCode !== null) return ok();
          child.once('exit', () => ok());
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

function portFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((ok) => {
    probe.once('error', () => ok(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => ok(true)));
  });
}

import { freePort } from './free-port';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the compose file starts besides the replicas, run on loopback for the process test: the load balancer is
 * the real nginx with deploy/compose/nginx.conf (only the upstream addresses, listen port and pid path are
 * rewritten). The collector's stand-in is test/support/otlp-sink.ts.
 */
export interface LocalNginx {
  origin: string;
  stop(): Promise<void>;
}

export async function startNginx(confFile: string, upstreams: Record<string, string>): Promise<LocalNginx> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-nginx-'));
  let conf = readFileSync(confFile, 'utf8')
    .replace(/\blisten\s+8080;/, `listen 127.0.0.1:${port};`)
    .replace(/^pid\s+[^;]+;/m, `pid ${join(dir, 'nginx.pid')};`);
  for (const [host, address] of Object.entries(upstreams)) {
    conf = conf.replace(new RegExp(`server\\s+${host}:3000\\b`), `server ${address}`);
  }
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(
    existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx',
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const spawned = new Promise<void>((ok, fail) => {
    child.once('error', (e) =>
      fail(new Error(`nginx could not start (the test command installs nginx-light): ${e.message}`)),
    );
    child.once('exit', (code) => fail(new Error(`nginx exited with ${code}:\n${stderr}`)));
    void waitForPort(port).then(ok, fail);
  });
  await spawned;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null) return ok(rmSync(dir, { recursive: true, force: true }));
        child.once('exit', () => ok(rmSync(dir, { recursive: true, force: true })));
        child.kill('SIGQUIT');
      }),
  };
}

async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((ok) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        ok(true);
      });
      socket.once('error', () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

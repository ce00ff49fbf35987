import { freePort } from './free-port';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './redis-topologies';

/**
 * A Redis of the test's own (the machine's redis-server on a free loopback port, nothing saved to disk) that the
 * test can make unreachable: `pause()` hangs it (SIGSTOP: connections stay open, nothing is answered), `kill()`
 * makes it go away (connections refused). `stop()` ends it whatever state it is in and removes its folder.
 */
export interface OwnRedis {
  port: number;
  url: string;
  pause(): void;
  kill(): Promise<void>;
  /** Kills it and starts a new, empty one on the same port (a Redis restarted without its data). */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-own-redis-'));
  const port = await freePort();
  let child = await serve(port, dir);
  const kill = (): Promise<void> => end(child);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pause: () => void child.kill('SIGSTOP'),
    kill,
    async restartEmpty() {
      await kill();
      child = await serve(port, dir);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** redis-server on `port`, nothing saved to disk, resolved once it answers PING. */
async function serve(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 15_000;
  while (cli(port, ['PING']) !== 'PONG') {
    if (Date.now() > deadline || child.exitCode !== null) {
      await end(child);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server on port ${port} did not come up`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

/** SIGKILL (a stopped process takes it too), resolved once the process is gone. */
function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGKILL');
  });
}

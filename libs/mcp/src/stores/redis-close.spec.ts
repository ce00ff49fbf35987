import { Server, Socket, createServer } from 'node:net';
import Redis from 'ioredis';
import { closeRedisClient } from './redis-close';

/**
 * A TCP server that speaks just enough Redis (+OK to every command) until `hang()`, then takes connections and
 * data and never answers again: a Redis that was SIGSTOPped, say.
 */
async function hangingServer(): Promise<{ port: number; hang(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let hung = false;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (data) => {
      const commands = data.toString().match(/(^|\n)\*\d+\r\n/g)?.length ?? 0;
      if (!hung) socket.write('+OK\r\n'.repeat(commands));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    hang: () => (hung = true),
    close: () =>
      new Promise<void>((ok) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => ok());
      }),
  };
}

/** A loopback port nothing listens on: connections are refused (Redis gone). */
async function refusedPort(): Promise<number> {
  const probe = await hangingServer();
  await probe.close();
  return probe.port;
}

const until = async (ok: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/**
 * ioredis's disconnect() ends the socket and destroys it when it is still open this long after (2 s by default: a
 * peer that never reads, or a socket already closed, keeps that timer): short here, so jest ends at once.
 */
const QUICK_DROP = { disconnectTimeout: 50 };

describe('closeRedisClient', () => {
  it('says QUIT to a Redis that answers (the machine’s)', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    await redis.ping();
    expect(await closeRedisClient(redis)).toBeUndefined();
    await until(() => redis.status === 'end');
  });

  it('drops a connection whose Redis hangs once QUIT has had its time', async () => {
    const redis = await hangingServer();
    // No command timeout, as the bus's subscriber: a bare quit() would wait for ever.
    const client = new Redis({
      port: redis.port,
      host: '127.0.0.1',
      enableReadyCheck: false,
      maxRetriesPerRequest: null,
      ...QUICK_DROP,
    });
    client.on('error', () => undefined);
    try {
      await until(() => client.status === 'ready');
      redis.hang();
      const started = Date.now();
      expect(await closeRedisClient(client, 200)).toBe('no answer to QUIT within 200 ms');
      expect(Date.now() - started).toBeLessThan(1_000);
      await until(() => client.status === 'end');
    } finally {
      if (client.status !== 'end') client.disconnect();
      await redis.close();
    }
  });

  it('drops a connection still waiting for a hung Redis to greet it', async () => {
    const redis = await hangingServer();
    redis.hang();
    const client = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: null, ...QUICK_DROP });
    client.on('error', () => undefined);
    try {
      await until(() => client.status === 'connect');
      expect(await closeRedisClient(client, 200)).toBe('no answer to QUIT within 200 ms');
      await until(() => client.status === 'end');
    } finally {
      if (client.status !== 'end') client.disconnect();
      await redis.close();
    }
  });

  it('drops at once a connection whose Redis is gone, SUBSCRIBE queued, and stops its reconnection attempts', async () => {
    const redis = new Redis({
      port: await refusedPort(),
      host: '127.0.0.1',
      maxRetriesPerRequest: null,
      retryStrategy: () => 50,
      ...QUICK_DROP,
    });
    redis.on('error', () => undefined);
    // Queued until Redis is back: QUIT would wait behind it for ever.
    const subscribed = redis.subscribe('bus').catch(() => undefined);
    try {
      await until(() => redis.status === 'reconnecting');
      const started = Date.now();
      expect(await closeRedisClient(redis)).toBe('Redis unreachable');
      expect(Date.now() - started).toBeLessThan(100);
      let attempts = 0;
      redis.on('connecting', () => attempts++);
      await new Promise((r) => setTimeout(r, 300));
      expect(attempts).toBe(0);
    } finally {
      if (redis.status !== 'end') redis.disconnect();
      void subscribed;
    }
  });

  it('has nothing to close on a connection never opened', async () => {
    const redis = new Redis({ lazyConnect: true });
    expect(await closeRedisClient(redis)).toBeUndefined();
    expect(await closeRedisClient(redis)).toBeUndefined();
  });
});

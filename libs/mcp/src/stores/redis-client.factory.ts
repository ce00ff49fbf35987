import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** A standalone or Sentinel-managed connection, or a Cluster: the Redis stores use what the three have in common. */
export type RedisClient = Redis | Cluster;

/** Whether `client` is a Cluster (ioredis types `isCluster` as a plain boolean on both classes). */
export const isCluster = (client: RedisClient): client is Cluster => client.isCluster;

/** Where the Redis stores connect (`redis` options resolved from the environment). */
export interface RedisTarget {
  url: string;
  sentinels: string[];
  sentinelName: string;
  clusterNodes: string[];
}

/**
 * Commands fail within a second when Redis cannot be reached (one retry, a command timeout) instead of queueing,
 * so a request gets a clear 503 rather than hanging; ioredis reconnects by itself.
 */
const FAIL_FAST: RedisOptions = {
  maxRetriesPerRequest: 1,
  commandTimeout: 1_000,
  connectTimeout: 2_000,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/**
 * Commands issued in one event-loop turn leave in one write (ioredis auto-pipelining): under load, the limiter's
 * slot takes and releases of many calls share a syscall and a round trip instead of paying one each. Not on a
 * Cluster: there a pipeline in which a write succeeded does not follow a MOVED/ASK redirect for the others, so a
 * resharding or failover would turn into failed commands (503s).
 */
const PIPELINED = { enableAutoPipelining: true };

const address = (hostPort: string): { host: string; port: number } => {
  const at = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(at + 1)) };
};

/**
 * The connection for `target`: `url` alone (`redis://`, `rediss://` for TLS); with `sentinels`, the master named
 * `sentinelName` as the sentinels report it (failover followed); with `clusterNodes`, a Cluster. In the last two
 * the URL gives the credentials, database and TLS (`rediss://`) of the data nodes.
 */
export async function createRedisClient(target: RedisTarget): Promise<RedisClient> {
  // Loaded here, not at the top: a server on the in-memory stores never loads ioredis (a shorter boot).
  const { Redis, Cluster } = await import('ioredis');
  if (!target.sentinels.length && !target.clusterNodes.length)
    return new Redis(target.url, { ...FAIL_FAST, ...PIPELINED });
  const url = new URL(target.url);
  const tls = url.protocol === 'rediss:' ? {} : undefined;
  const auth: RedisOptions = {
    username: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    tls,
  };
  if (target.sentinels.length) {
    return new Redis({
      ...FAIL_FAST,
      ...PIPELINED,
      ...auth,
      db: Number(url.pathname.slice(1)) || 0,
      sentinels: target.sentinels.map(address),
      name: target.sentinelName,
      enableTLSForSentinelMode: tls !== undefined,
    });
  }
  return new Cluster(target.clusterNodes.map(address), {
    redisOptions: { ...FAIL_FAST, ...auth },
    clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/**
 * A second connection to the same place for pub/sub (a subscribed connection can do nothing else), without the
 * command timeout: subscriptions wait for messages and survive reconnects (ioredis resubscribes).
 */
export function createSubscriber(client: RedisClient): RedisClient {
  // Pipelining is for commands; a subscribed connection sends (un)subscriptions only.
  const patient = { maxRetriesPerRequest: null, commandTimeout: undefined, enableAutoPipelining: false };
  if (isCluster(client)) {
    // One subscriber per master: the bus subscribes with SSUBSCRIBE on a Cluster (see RedisMessageBus).
    return client.duplicate(undefined, {
      redisOptions: { ...client.options.redisOptions, ...patient },
      shardedSubscribers: true,
    });
  }
  return client.duplicate(patient);
}

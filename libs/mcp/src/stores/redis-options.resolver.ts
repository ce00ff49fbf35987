import type { McpRedisOptions } from '../options/redis-options.interface';

const list = (value: string | undefined): string[] | undefined =>
  value?.trim()
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

/**
 * The `redis` options from `forRoot` first, then the environment (`REDIS_URL`, `MCP_REDIS_PREFIX`,
 * `REDIS_SENTINELS`, `REDIS_SENTINEL_NAME`, `REDIS_CLUSTER_NODES`), checked at boot so a wrong address stops the
 * start with a clear message instead of a replica that never becomes ready.
 * @internal
 */
export function resolveRedisOptions(
  options: McpRedisOptions | undefined,
  name: string,
  env: NodeJS.ProcessEnv,
): Required<McpRedisOptions> {
  const sentinels = options?.sentinels ?? list(env.REDIS_SENTINELS) ?? [];
  const clusterNodes = options?.clusterNodes ?? list(env.REDIS_CLUSTER_NODES) ?? [];
  const resolved: Required<McpRedisOptions> = {
    url: options?.url ?? env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    keyPrefix: options?.keyPrefix ?? env.MCP_REDIS_PREFIX ?? (clusterNodes.length ? `{mcp:${name}}:` : `mcp:${name}:`),
    sentinels,
    sentinelName: options?.sentinelName ?? env.REDIS_SENTINEL_NAME?.trim() ?? 'mymaster',
    clusterNodes,
  };
  if (!/^rediss?:\/\//.test(resolved.url)) {
    throw new Error('McpModule: redis.url (REDIS_URL) must start with redis:// or rediss:// (TLS)');
  }
  if (sentinels.length && clusterNodes.length) {
    throw new Error(
      'McpModule: set redis.sentinels (REDIS_SENTINELS) or redis.clusterNodes (REDIS_CLUSTER_NODES), not both',
    );
  }
  for (const node of [...sentinels, ...clusterNodes]) {
    const port = Number(/:(\d+)$/.exec(node)?.[1]);
    if (!/^[^\s:]+:\d+$|^\[[0-9a-fA-F:]+\]:\d+$/.test(node) || !(port >= 1 && port <= 65_535)) {
      throw new Error(`McpModule: Redis node addresses are host:port (got ${JSON.stringify(node)})`);
    }
  }
  if (sentinels.length && !resolved.sentinelName) {
    throw new Error('McpModule: redis.sentinelName (REDIS_SENTINEL_NAME) must not be empty');
  }
  // Sessions, caps and event logs are updated with multi-key commands, which a Cluster runs only within one slot.
  if (clusterNodes.length && !/\{[^{}]+\}/.test(resolved.keyPrefix)) {
    throw new Error(
      `McpModule: with a Redis Cluster the key prefix needs a hash tag, e.g. "{mcp:${name}}:" (got ${JSON.stringify(resolved.keyPrefix)})`,
    );
  }
  return resolved;
}

/**
 * Where the Redis stores connect (`store: 'redis'`). One of three shapes: `url` alone; `sentinels` (the master
 * named `sentinelName`, followed through failovers); `clusterNodes` (a Redis Cluster). With sentinels or cluster
 * nodes, `url` still gives the data nodes' credentials, database and TLS (`rediss://`).
 */
export interface McpRedisOptions {
  /** `redis://[user:password@]host:port[/db]`, `rediss://` for TLS. Env `REDIS_URL`, default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * Prefix of every key and channel. Env `MCP_REDIS_PREFIX`, default `mcp:<name>:` (`{mcp:<name>}:` with a
   * Cluster: a hash tag puts a server's keys in one slot, which its multi-key commands need).
   */
  keyPrefix?: string;
  /** Sentinel addresses (`host:port`). Env `REDIS_SENTINELS` (comma list). */
  sentinels?: string[];
  /** The master's name at the sentinels. Env `REDIS_SENTINEL_NAME`, default `mymaster`. */
  sentinelName?: string;
  /** Cluster seed nodes (`host:port`). Env `REDIS_CLUSTER_NODES` (comma list). */
  clusterNodes?: string[];
}

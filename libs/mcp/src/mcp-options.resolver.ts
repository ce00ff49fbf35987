import { packageVersion } from './app-version';
import { McpModuleOptions, ResolvedMcpOptions } from './options/mcp-module-options.interface';
import { DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS } from './auth/origin-host.checks';
import { resolveRedisOptions } from './stores/redis-options.resolver';
import { resolveTasksOptions } from './tasks/tasks-options.resolver';
import { resolveLimitsOptions } from './admission/limits-options.resolver';

const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));
const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Fills defaults (environment first, then built-ins) and checks what cannot be checked by types. @internal */
export function resolveMcpOptions(o: McpModuleOptions): ResolvedMcpOptions {
  if (!o || typeof o.name !== 'string' || !/^[a-z][a-z0-9+.-]*$/.test(o.name)) {
    throw new Error(
      `McpModule: "name" must be a lower-case service name usable as a URI scheme (got ${JSON.stringify(o?.name)})`,
    );
  }
  const env = process.env;
  const resolved: ResolvedMcpOptions = {
    name: o.name,
    version: o.version ?? packageVersion(),
    title: o.title,
    description: o.description,
    instructions: o.instructions,
    auth: o.auth,
    path: o.path ?? '/mcp',
    pageSize: o.pageSize ?? (Number(env.MCP_PAGE_SIZE) || 100),
    sessionIdleTimeoutMs: o.sessionIdleTimeoutMs ?? (Number(env.MCP_SESSION_IDLE_TIMEOUT_MS) || 30 * 60_000),
    allowedHosts: o.allowedHosts ?? list(env.MCP_ALLOWED_HOSTS) ?? DEFAULT_ALLOWED_HOSTS,
    allowedOrigins: o.allowedOrigins ?? list(env.MCP_ALLOWED_ORIGINS) ?? DEFAULT_ALLOWED_ORIGINS,
    progressIntervalMs: o.progressIntervalMs ?? 50,
    clientRequestTimeoutMs: o.clientRequestTimeoutMs ?? 5 * 60_000,
    sseRetryMs: o.sseRetryMs ?? 1_000,
    maxRequestBytes: o.maxRequestBytes ?? num(env.MCP_MAX_REQUEST_BYTES) ?? 1_048_576,
    http: o.http ?? true,
    httpStatusProfile:
      o.httpStatusProfile ?? ((env.MCP_HTTP_STATUS_PROFILE as 'corporate' | 'spec' | undefined) || 'spec'),
    limits: resolveLimitsOptions(o.limits, env),
    caching: resolveCaching(o.caching),
    tasks: resolveTasksOptions(o.tasks, env, o.store ?? ((env.MCP_STORE?.trim() || 'memory') as 'memory' | 'redis')),
    legacySse: legacySseEnabled(o.legacySse),
    store: o.store ?? ((env.MCP_STORE?.trim() || 'memory') as 'memory' | 'redis'),
    redis: resolveRedisOptions(o.redis, o.name, env),
    health: {
      enabled: o.health?.enabled ?? true,
      cacheMs: o.health?.cacheMs ?? num(env.MCP_READY_CACHE_MS) ?? 5_000,
      probeTimeoutMs: o.health?.probeTimeoutMs ?? num(env.MCP_READY_PROBE_TIMEOUT_MS) ?? 2_000,
    },
    metrics: resolveMetrics(o.metrics),
    logging: {
      arguments: o.logging?.arguments ?? /^(true|1)$/i.test(env.MCP_LOG_ARGUMENTS?.trim() ?? ''),
      refusalIntervalMs: o.logging?.refusalIntervalMs ?? num(env.MCP_REFUSAL_LOG_INTERVAL_MS) ?? 60_000,
    },
    corporate: o.corporate,
    servicePage: o.servicePage ?? !/^(false|0)$/i.test(env.MCP_SERVICE_PAGE?.trim() ?? ''),
    skills: resolveSkills(o.skills),
    views: o.views,
  };
  checkResolvedOptions(resolved);
  return resolved;
}

/** What types cannot check, in a fixed order so the first wrong option named is always the same. */
function checkResolvedOptions(resolved: ResolvedMcpOptions): void {
  if (process.env.NODE_ENV === 'production' && resolved.allowedOrigins.includes('*')) {
    throw new Error(
      'McpModule: allowedOrigins "*" is not allowed when NODE_ENV=production; list the origins explicitly (MCP_ALLOWED_ORIGINS)',
    );
  }
  if (!['memory', 'redis'].includes(resolved.store))
    throw new Error(`McpModule: store must be "memory" or "redis" (got ${JSON.stringify(resolved.store)})`);
  if (!['corporate', 'spec'].includes(resolved.httpStatusProfile))
    throw new Error('McpModule: httpStatusProfile must be "corporate" or "spec"');
  for (const [key, value] of Object.entries(resolved.limits)) {
    // A per-source connection bound of 0 switches it off (behind a proxy every connection has the proxy's address).
    const least = key === 'maxConnectionsPerSource' ? 0 : 1;
    if (!Number.isInteger(value) || value < least)
      throw new Error(`McpModule: limits.${key} must be a positive integer (got ${JSON.stringify(value)})`);
  }
  if (!Number.isInteger(resolved.logging.refusalIntervalMs) || resolved.logging.refusalIntervalMs < 1)
    throw new Error('McpModule: logging.refusalIntervalMs must be a positive integer');
  if (!Number.isInteger(resolved.pageSize) || resolved.pageSize < 1)
    throw new Error('McpModule: "pageSize" must be a positive integer');
  if (resolved.skills && (typeof resolved.skills.root !== 'string' || resolved.skills.root === ''))
    throw new Error('McpModule: skills.root must be the path of a folder');
  for (const [path, scopes] of Object.entries(resolved.skills?.scopes ?? {}))
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || !/^[\x21-\x7e]+$/.test(s)))
      throw new Error(`McpModule: skills.scopes[${JSON.stringify(path)}] must be a list of scopes (no spaces)`);
  if (resolved.views && (typeof resolved.views.root !== 'string' || resolved.views.root === ''))
    throw new Error('McpModule: views.root must be the path of a folder');
  if (!/^\d+\.\d+\.\d+/.test(resolved.version))
    throw new Error(`McpModule: "version" must be semver (got ${JSON.stringify(resolved.version)})`);
}

/**
 * Skills: the option, else `MCP_SKILLS_DIR`; their scopes, the option's, else `MCP_SKILLS_SCOPES`
 * (`<skill path>=<scope> <scope>;...`).
 */
function resolveSkills(o: McpModuleOptions['skills']): ResolvedMcpOptions['skills'] {
  const env = process.env;
  const root = env.MCP_SKILLS_DIR?.trim();
  const skills = o ?? (root ? { root } : undefined);
  if (!skills || skills.scopes || !env.MCP_SKILLS_SCOPES?.trim()) return skills;
  const scopes: Record<string, string[]> = {};
  for (const entry of env.MCP_SKILLS_SCOPES.split(';').filter((e) => e.trim() !== '')) {
    const at = entry.indexOf('=');
    if (at < 1) throw new Error(`McpModule: MCP_SKILLS_SCOPES: "${entry.trim()}" is not <skill path>=<scopes>`);
    scopes[entry.slice(0, at).trim()] = entry
      .slice(at + 1)
      .split(/\s+/)
      .filter(Boolean);
  }
  return { ...skills, scopes };
}

/** Metrics options: the option, then `MCP_METRICS_*`, then a separate listener on 9464. @internal */
function resolveCaching(o: McpModuleOptions['caching']): ResolvedMcpOptions['caching'] {
  const env = process.env;
  const cacheScope = o?.cacheScope ?? (env.MCP_CACHE_SCOPE?.trim() || 'private');
  if (cacheScope !== 'private' && cacheScope !== 'public')
    throw new Error(`McpModule: caching.cacheScope must be "private" or "public" (got ${JSON.stringify(cacheScope)})`);
  const ttl = (value: number | undefined, name: string, fallback: number) => {
    const v = value ?? num(env[name]) ?? fallback;
    if (!Number.isInteger(v) || v < 0)
      throw new Error(`McpModule: caching TTLs are whole milliseconds >= 0 (${name} = ${JSON.stringify(v)})`);
    return v;
  };
  return {
    listTtlMs: ttl(o?.listTtlMs, 'MCP_LIST_TTL_MS', 60_000),
    readTtlMs: ttl(o?.readTtlMs, 'MCP_READ_TTL_MS', 0),
    cacheScope,
  };
}

function resolveMetrics(o: McpModuleOptions['metrics']): ResolvedMcpOptions['metrics'] {
  if (o === false) return false;
  const env = process.env;
  const envPort = env.MCP_METRICS_PORT?.trim();
  const port = o?.port ?? (envPort === 'false' || envPort === 'off' ? false : (num(envPort) ?? 9464));
  if (port !== false && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`McpModule: metrics.port must be a port number, 0 or false (got ${JSON.stringify(port)})`);
  }
  const user = env.MCP_METRICS_USER;
  const password = env.MCP_METRICS_PASSWORD;
  const basicAuth = o?.basicAuth ?? (user && password ? { username: user, password } : undefined);
  if (basicAuth && (!basicAuth.username || !basicAuth.password || basicAuth.username.includes(':'))) {
    throw new Error('McpModule: metrics.basicAuth needs a username (without ":") and a password');
  }
  return {
    port,
    host: o?.host ?? env.MCP_METRICS_HOST ?? env.HOST ?? '127.0.0.1',
    basicAuth,
    defaultMetrics: o?.defaultMetrics ?? true,
  };
}

/** Whether the legacy HTTP+SSE transport is served: the option, else `MCP_LEGACY_SSE` (`true` or `1`). @internal */
export function legacySseEnabled(option: boolean | undefined): boolean {
  return option ?? /^(true|1)$/i.test(process.env.MCP_LEGACY_SSE?.trim() ?? '');
}

import { DEFAULT_MAX_JSON_DEPTH } from '../wire/json-depth';
import { McpLimits } from '../options/limits-options.interface';

const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));

/**
 * Every budget with its default: the option, then its `MCP_*` variable, then the built-in value. Bounds are
 * checked with the other options (resolveMcpOptions), after every option has been read.
 * @internal
 */
export function resolveLimitsOptions(o: McpLimits | undefined, env: NodeJS.ProcessEnv): Required<McpLimits> {
  return {
    toolTimeoutMs: o?.toolTimeoutMs ?? num(env.MCP_TOOL_TIMEOUT_MS) ?? 30_000,
    maxResultBytes: o?.maxResultBytes ?? num(env.MCP_MAX_RESULT_BYTES) ?? 10 * 1024 * 1024,
    callsPerMinute: o?.callsPerMinute ?? num(env.MCP_RATE_LIMIT_PER_MINUTE) ?? 600,
    requestsPerMinute: o?.requestsPerMinute ?? num(env.MCP_REQUESTS_PER_MINUTE) ?? 3_000,
    maxBatchSize: o?.maxBatchSize ?? num(env.MCP_MAX_BATCH_SIZE) ?? 100,
    maxJsonDepth: o?.maxJsonDepth ?? num(env.MCP_MAX_JSON_DEPTH) ?? DEFAULT_MAX_JSON_DEPTH,
    maxBatchResponseBytes: o?.maxBatchResponseBytes ?? num(env.MCP_MAX_BATCH_RESPONSE_BYTES) ?? 10 * 1024 * 1024,
    maxConnections: o?.maxConnections ?? num(env.MCP_MAX_CONNECTIONS) ?? 10_000,
    maxConnectionsPerSource: o?.maxConnectionsPerSource ?? num(env.MCP_MAX_CONNECTIONS_PER_SOURCE) ?? 512,
    idempotencyTtlMs: o?.idempotencyTtlMs ?? num(env.MCP_IDEMPOTENCY_TTL_MS) ?? 3_600_000,
    idempotencyMaxAnswerBytes: o?.idempotencyMaxAnswerBytes ?? num(env.MCP_IDEMPOTENCY_MAX_ANSWER_BYTES) ?? 4_096,
    idempotencyKeysPerSubject: o?.idempotencyKeysPerSubject ?? num(env.MCP_IDEMPOTENCY_KEYS_PER_SUBJECT) ?? 200,
    idempotencyMaxKeys: o?.idempotencyMaxKeys ?? num(env.MCP_IDEMPOTENCY_MAX_KEYS) ?? 5_000,
    maxConcurrentCalls: o?.maxConcurrentCalls ?? num(env.MCP_MAX_CONCURRENT_CALLS) ?? 16,
    shutdownGraceMs: o?.shutdownGraceMs ?? num(env.MCP_SHUTDOWN_GRACE_MS) ?? 10_000,
    maxSessionsPerSubject: o?.maxSessionsPerSubject ?? num(env.MCP_MAX_SESSIONS_PER_SUBJECT) ?? 100,
    maxSessions: o?.maxSessions ?? num(env.MCP_MAX_SESSIONS) ?? 10_000,
    maxStreams: o?.maxStreams ?? num(env.MCP_MAX_STREAMS) ?? 1_000,
    maxStreamsPerSubject: o?.maxStreamsPerSubject ?? num(env.MCP_MAX_STREAMS_PER_SUBJECT) ?? 100,
    replayBytesPerMinute: o?.replayBytesPerMinute ?? num(env.MCP_REPLAY_BYTES_PER_MINUTE) ?? 32 * 1024 * 1024,
    eventLogBytesPerSession: o?.eventLogBytesPerSession ?? num(env.MCP_EVENT_LOG_BYTES_PER_SESSION) ?? 16 * 1024 * 1024,
    eventLogBytesPerSubject: o?.eventLogBytesPerSubject ?? num(env.MCP_EVENT_LOG_BYTES_PER_SUBJECT) ?? 32 * 1024 * 1024,
    initializePerMinute: o?.initializePerMinute ?? num(env.MCP_INITIALIZE_PER_MINUTE) ?? 120,
    headersTimeoutMs: o?.headersTimeoutMs ?? num(env.MCP_HEADERS_TIMEOUT_MS) ?? 20_000,
    requestTimeoutMs: o?.requestTimeoutMs ?? num(env.MCP_REQUEST_TIMEOUT_MS) ?? 60_000,
    keepAliveTimeoutMs: o?.keepAliveTimeoutMs ?? num(env.MCP_KEEP_ALIVE_TIMEOUT_MS) ?? 65_000,
  };
}

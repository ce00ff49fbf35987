/**
 * Every budget a request can be refused by, and which ones each kind of request passes, in order: the one table to
 * open when changing a limit or adding a request kind. docs/limits-and-errors.md#admission shows it, and
 * request-kinds.spec.ts fails when a method or an HTTP route has no row, or when the page and this table disagree.
 */

/** The budgets, each with the settings that size it. @internal */
export const BUDGETS = {
  connections: 'limits.maxConnections, limits.maxConnectionsPerSource (open TCP connections, before any byte is read)',
  known_over: 'a caller this replica saw over requestsPerMinute is refused before its body is read',
  body: 'maxRequestBytes, limits.maxJsonDepth (the HTTP body, or one stdio line)',
  batch_size: 'limits.maxBatchSize (then each message passes the budgets of its own kind)',
  requests: 'limits.requestsPerMinute (every message of any kind, per caller)',
  draining: 'a replica shutting down refuses new work (-32006, retry on another instance)',
  sessions: 'limits.maxSessions, limits.maxSessionsPerSubject',
  initialize_rate: 'limits.initializePerMinute',
  calls: "limits.callsPerMinute, then the tool's rateLimit.callsPerMinute",
  concurrency: "limits.maxConcurrentCalls, then the tool's rateLimit.maxConcurrent",
  idempotency: 'the idempotency store (a keyed repeat is answered from it; fails closed)',
  tasks: 'tasks.maxOpenPerSubject, maxOpen, maxKeptPerSubject, maxKept, maxBytesPerSubject, maxStoreBytes, maxBytes',
  streams: 'limits.maxStreams (per replica), limits.maxStreamsPerSubject',
  replay_bytes: 'limits.replayBytesPerMinute (the bytes a Last-Event-ID resume sends again)',
} as const;

/** One budget of {@link BUDGETS}. @internal */
export type Budget = keyof typeof BUDGETS;

/**
 * The kinds of request, by the route or message that carries them, with their budgets in the order they are passed.
 * A JSON-RPC request's own budgets are its method family's ({@link METHOD_FAMILIES}), after its route's.
 * @internal
 */
export const REQUEST_KINDS = {
  'POST /mcp': ['connections', 'known_over', 'body'],
  'POST /mcp batch (2025-03-26)': ['batch_size'],
  'invalid message; 2026-07-28 request with a bad _meta or header': ['requests'],
  'notification or response (2025 session)': ['requests'],
  'notifications/initialized (2025 session)': [],
  'notification or response (2026-07-28: never answered)': [],
  'request of an unknown method': ['requests'],
  'GET /mcp (2025 stream)': ['connections', 'requests', 'streams'],
  'GET /mcp with Last-Event-ID (replay)': ['connections', 'requests', 'replay_bytes'],
  'DELETE /mcp': ['connections', 'requests'],
  'GET /sse (legacy HTTP+SSE)': ['connections', 'draining', 'sessions', 'initialize_rate', 'streams'],
  'POST /messages (legacy HTTP+SSE)': ['connections', 'body'],
  'stdio line': ['body'],
} as const satisfies Record<string, readonly Budget[]>;

/** The budgets of each family of methods, after those of the route that carried the request. @internal */
export const FAMILY_BUDGETS = {
  initialize: ['draining', 'sessions', 'initialize_rate'],
  ping: ['requests'],
  request: ['draining', 'requests'],
  call: ['draining', 'requests', 'idempotency', 'calls', 'concurrency'],
  'tools/call creating a task': ['draining', 'requests', 'calls', 'concurrency', 'tasks'],
  'task wait': ['draining', 'requests', 'streams'],
  listen: ['draining', 'requests', 'streams'],
} as const satisfies Record<string, readonly Budget[]>;

/** A family of methods that pass the same budgets. @internal */
export type MethodFamily = keyof typeof FAMILY_BUDGETS;

/**
 * Every method either era serves, with its family. `tools/call` is a `call`; one that creates a task (its `task`
 * parameter, or `ctx.startTask()`) passes `tools/call creating a task` instead. A method missing here fails
 * request-kinds.spec.ts.
 * @internal
 */
export const METHOD_FAMILIES = {
  initialize: 'initialize',
  ping: 'ping',
  'logging/setLevel': 'request',
  'server/discover': 'request',
  'tools/list': 'request',
  'tools/call': 'call',
  'prompts/list': 'request',
  'prompts/get': 'call',
  'resources/list': 'request',
  'resources/read': 'call',
  'resources/templates/list': 'request',
  'resources/subscribe': 'request',
  'resources/unsubscribe': 'request',
  'completion/complete': 'request',
  'skills/list': 'request',
  'skills/get': 'request',
  'resources/directory/read': 'request',
  'tasks/get': 'request',
  'tasks/list': 'request',
  'tasks/cancel': 'request',
  'tasks/update': 'request',
  'tasks/result': 'task wait',
  'subscriptions/listen': 'listen',
} as const satisfies Record<string, MethodFamily>;

/** Whether requests of `method` pass `budget` (an unknown method passes those of its own row). @internal */
export function passes(method: string, budget: Budget): boolean {
  const family = Object.hasOwn(METHOD_FAMILIES, method)
    ? METHOD_FAMILIES[method as keyof typeof METHOD_FAMILIES]
    : undefined;
  const budgets: readonly Budget[] = family ? FAMILY_BUDGETS[family] : REQUEST_KINDS['request of an unknown method'];
  return budgets.includes(budget);
}

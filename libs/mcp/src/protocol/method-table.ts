import { McpError } from '../errors/mcp.error';
import { LOGGING_LEVELS, LoggingLevel } from '../wire/logging-level';
import { ErrorCode } from '../wire/json-rpc';
import { MethodHandler, MethodResult, HandlerContext, sessionOf } from './handlers/handler-context';
import { callTool, listTools } from './handlers/tools.handler';
import { getPrompt, listPrompts } from './handlers/prompts.handler';
import { listResources, listTemplates, readResource, subscribe, unsubscribe } from './handlers/resources.handler';
import { complete } from './handlers/completion.handler';
import { getSkill, listSkills, readDirectory } from './handlers/skills.handler';
import {
  cancelSessionEraTask,
  cancelTask,
  getSessionEraTask,
  getTask,
  listSessionEraTasks,
  updateTask,
} from './handlers/tasks.handler';
import { taskResult } from './handlers/task-result.handler';
import { Capability, serverCapabilities } from './server-capabilities';
import { discoverResult } from './server-discover';

/**
 * One method: the function that answers it, and the capability it belongs to (a registry without entries of that
 * capability answers `-32601`, checked by the request runner). Plain references, so go-to-definition leads from a
 * method's name straight to its handler.
 * @internal
 */
export interface MethodRoute {
  readonly handler: MethodHandler;
  readonly capability?: Capability;
}

/** A protocol era's methods by name. @internal */
export type MethodTable = Readonly<Record<string, MethodRoute>>;

/** The method of `name` in `table`; never an inherited property (`constructor`, `toString`). @internal */
export function routeOf(table: MethodTable, name: string): MethodRoute | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** The methods both eras share: the catalogue, calls, reads and completion. */
const SHARED_METHODS = {
  'tools/list': { capability: 'tools', handler: listTools },
  'tools/call': { capability: 'tools', handler: callTool },
  'prompts/list': { capability: 'prompts', handler: listPrompts },
  'prompts/get': { capability: 'prompts', handler: getPrompt },
  'resources/list': { capability: 'resources', handler: listResources },
  'resources/read': { capability: 'resources', handler: readResource },
  'resources/templates/list': { capability: 'resources', handler: listTemplates },
  'completion/complete': { capability: 'completions', handler: complete },
  // The skills extension (io.modelcontextprotocol/skills), to both eras: -32601 without skills.
  'skills/list': { capability: 'skills', handler: listSkills },
  'skills/get': { capability: 'skills', handler: getSkill },
  'resources/directory/read': { capability: 'skills', handler: readDirectory },
} as const satisfies MethodTable;

/**
 * The 2025 sessions' methods (`initialize` is the session's own, answered by the dispatcher before the table). `ping`,
 * `logging/setLevel` and `resources/(un)subscribe` exist in this era only.
 * @internal
 */
export const SESSION_ERA_METHODS: MethodTable = {
  ping: { handler: () => ({}) },
  'logging/setLevel': { handler: setLevel },
  ...SHARED_METHODS,
  'resources/subscribe': { capability: 'resources', handler: subscribe },
  'resources/unsubscribe': { capability: 'resources', handler: unsubscribe },
  // The 2025-11-25 tasks utility (other 2025 revisions get -32601 from the handlers).
  'tasks/get': { handler: getSessionEraTask },
  'tasks/result': { handler: taskResult },
  'tasks/list': { handler: listSessionEraTasks },
  'tasks/cancel': { handler: cancelSessionEraTask },
};

/**
 * The 2026-07-28 methods: the shared ones, `server/discover` and the tasks extension. `subscriptions/listen` is added
 * by the dispatcher, which owns the streams it holds. Removed methods (`initialize`, `ping`, `logging/setLevel`,
 * `resources/subscribe`) are simply absent: `-32601`.
 * @internal
 */
export const MODERN_METHODS: MethodTable = {
  'server/discover': { handler: discover },
  ...SHARED_METHODS,
  // The tasks extension (io.modelcontextprotocol/tasks); tasks/result and tasks/list left with the 2025 utility.
  'tasks/get': { handler: getTask },
  'tasks/update': { handler: updateTask },
  'tasks/cancel': { handler: cancelTask },
};

function discover({ registry, options }: HandlerContext): MethodResult {
  return discoverResult(serverCapabilities(registry, '2026-07-28'), options);
}

function setLevel(request: HandlerContext): MethodResult {
  const { params } = request;
  if (!(LOGGING_LEVELS as readonly string[]).includes(params.level as string)) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: level must be a syslog level', {
      field: 'level',
      reason: 'enum',
    });
  }
  sessionOf(request).setLogLevel(params.level as LoggingLevel);
  return {};
}

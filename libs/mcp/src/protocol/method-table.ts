import { McpError } from '../errors/mcp.error';
import { LOGGING_LEVELS, LoggingLevel } from '../wire/logging-level';
import { McpRegistry } from '../registry/mcp.registry';
import { ErrorCode } from '../wire/json-rpc';
import { MethodHandler, MethodResult, RequestScope } from './handlers/handler-context';
import { callTool, listTools } from './handlers/tools.handler';
import { getPrompt, listPrompts } from './handlers/prompts.handler';
import { listResources, listTemplates, readResource, subscribe, unsubscribe } from './handlers/resources.handler';
import { complete } from './handlers/completion.handler';
import {
  cancelLegacyTask,
  cancelTask,
  getLegacyTask,
  getTask,
  listLegacyTasks,
  updateTask,
} from './handlers/tasks.handler';
import { taskResult } from './handlers/task-result.handler';

type Capability = 'tools' | 'prompts' | 'resources' | 'completions';

/** A method of a capability the registry does not have (yet: entries may be added at run time) is `-32601`. */
function needs(registry: McpRegistry, capability: Capability, handler: MethodHandler): MethodHandler {
  const has = {
    tools: () => registry.tools.size > 0,
    prompts: () => registry.prompts.size > 0,
    resources: () => registry.resources.size > 0 || registry.templates.size > 0,
    completions: () => registry.completions.size > 0,
  }[capability];
  return (scope) => {
    if (!has()) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
    return handler(scope);
  };
}

/** The methods both eras share: the catalogue, calls, reads and completion. */
function shared(registry: McpRegistry): [string, MethodHandler][] {
  return [
    ['tools/list', needs(registry, 'tools', listTools)],
    ['tools/call', needs(registry, 'tools', callTool)],
    ['prompts/list', needs(registry, 'prompts', listPrompts)],
    ['prompts/get', needs(registry, 'prompts', getPrompt)],
    ['resources/list', needs(registry, 'resources', listResources)],
    ['resources/read', needs(registry, 'resources', readResource)],
    ['resources/templates/list', needs(registry, 'resources', listTemplates)],
    ['completion/complete', needs(registry, 'completions', complete)],
  ];
}

/**
 * The 2025 sessions' methods (`initialize` is the session's own, handled before the table). `ping`,
 * `logging/setLevel` and `resources/(un)subscribe` exist in this era only.
 * @internal
 */
export function legacyMethods(registry: McpRegistry): Map<string, MethodHandler> {
  return new Map<string, MethodHandler>([
    ['ping', () => ({})],
    ['logging/setLevel', setLevel],
    ...shared(registry),
    ['resources/subscribe', needs(registry, 'resources', subscribe)],
    ['resources/unsubscribe', needs(registry, 'resources', unsubscribe)],
    // The 2025-11-25 tasks utility (other 2025 revisions get -32601 from the handlers).
    ['tasks/get', getLegacyTask],
    ['tasks/result', taskResult],
    ['tasks/list', listLegacyTasks],
    ['tasks/cancel', cancelLegacyTask],
  ]);
}

/**
 * The 2026-07-28 methods: the shared ones plus `server/discover` and `subscriptions/listen` (given by the
 * dispatcher, which owns them). Removed methods (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`)
 * are simply absent: `-32601`.
 * @internal
 */
export function modernMethods(registry: McpRegistry, own: [string, MethodHandler][]): Map<string, MethodHandler> {
  return new Map<string, MethodHandler>([
    ...own,
    ...shared(registry),
    // The tasks extension (io.modelcontextprotocol/tasks); tasks/result and tasks/list left with the 2025 utility.
    ['tasks/get', getTask],
    ['tasks/update', updateTask],
    ['tasks/cancel', cancelTask],
  ]);
}

function setLevel({ params, session }: RequestScope): MethodResult {
  if (!(LOGGING_LEVELS as readonly string[]).includes(params.level as string)) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: level must be a syslog level', {
      field: 'level',
      reason: 'enum',
    });
  }
  session.setLogLevel(params.level as LoggingLevel);
  return {};
}

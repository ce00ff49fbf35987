import { sanitizeErrorText } from '../../errors/message-sanitizer';
import { InvalidParamsError, McpError } from '../../errors/mcp.error';
import { assertScopes } from '../../auth/scopes';
import { invoke } from '../../pipeline/invocation.stage';
import { prepareToolArguments } from '../../pipeline/tool-arguments';
import { toolCallResult, toolErrorResult } from '../../pipeline/tool-result.normalizer';
import { ToolEntry } from '../../registry/registry-entries';
import { ErrorCode } from '../../wire/json-rpc';
import { declaresTasksExtension, tasksExtensionRequired } from '../../tasks/tasks.constants';
import { sessionEraTask, modernTask } from '../../tasks/task-wire';
import { MethodResult, HandlerContext } from './handler-context';
import { INVALID_ARGUMENTS } from '../../observability/call-outcome';

/** `tools/list`: a page serialised at boot. @internal */
export const listTools = ({ registry, params, peer, principal }: HandlerContext): MethodResult => ({
  raw: registry.page('tools', peer.protocolVersion, params.cursor, principal),
});

/**
 * `tools/call`: shape checks (-32602), lookup, argument validation (isError naming fields and
 * constraints, never values), the handler through Nest's pipeline, result normalisation.
 * @internal
 */
export async function callTool(request: HandlerContext): Promise<MethodResult> {
  const { params, registry } = request;
  if (typeof params.name !== 'string')
    throw new InvalidParamsError('Invalid params: name must be a string', { field: 'name', reason: 'required' });
  const args = params.arguments === undefined ? {} : params.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidParamsError('Invalid params: arguments must be an object', { field: 'arguments', reason: 'type' });
  }
  const tool = registry.tools.get(params.name);
  if (!tool) throw new InvalidParamsError('Unknown tool', { field: 'name', reason: 'unknown_tool' });
  // Authorization before argument validation: a caller without the scope learns nothing of the input schema.
  // (The scopes guard in the tool's Nest pipeline checks again, for run-time tools and custom guards.)
  assertScopes(request.principal, tool.requiredScopes);
  const asTask = runsAsTask(request, tool);

  const prepared = await prepareToolArguments(tool, args as Record<string, unknown>);
  if ('violations' in prepared) {
    // Violations name the caller's own keys and values: sanitised like every error text.
    const text = sanitizeErrorText(`Invalid arguments for tool ${tool.name}: ${prepared.violations.join('; ')}`);
    return Object.assign(toolErrorResult(text), {
      [INVALID_ARGUMENTS]: true,
    });
  }
  // A task without questions first is created at once: its method runs only on the queue.
  if (asTask && !tool.task?.asksFirst) return createTask(request, tool, args as Record<string, unknown>, undefined);

  const outcome = await invoke(request, {
    kind: 'tool',
    target: tool.name,
    rateLimit: tool.rateLimit,
    timeoutMs: tool.timeoutMs,
    method: tool.handler,
    args: prepared.value,
    becomesTask: asTask,
    once: tool.replayKey ? { argument: tool.replayKey, arguments: args as Record<string, unknown> } : undefined,
  });
  if ('inputRequired' in outcome) return outcome.inputRequired;
  if ('startTask' in outcome) return createTask(request, tool, args as Record<string, unknown>, outcome.startTask);
  return toolCallResult(outcome, tool, request.options.limits.maxResultBytes, request.peer.protocolVersion);
}

/**
 * Whether this call runs as a task. 2026-07-28: a task tool's call becomes a task when the request declares the tasks
 * extension; a `required` one is refused with `-32021` naming it otherwise (a 2025-era `task` param means nothing).
 * 2025-11-25: when the client asks with `task` (the utility's rules: `-32601` for a tool without task support asked
 * as a task, or a `required` one asked without). Other revisions have no tasks: a `required` tool is `-32601`.
 */
function runsAsTask(request: HandlerContext, tool: ToolEntry): boolean {
  const support = tool.task?.support;
  const { era, clientCapabilities } = request.peer;
  if (era.modern) {
    if (declaresTasksExtension(clientCapabilities)) return support !== undefined;
    if (support === 'required') throw tasksExtensionRequired(`tool ${tool.name} (it runs only as a task)`);
    return false;
  }
  const asked = era.tasksUtility && request.params.task !== undefined;
  if (
    asked &&
    (typeof request.params.task !== 'object' || request.params.task === null || Array.isArray(request.params.task))
  )
    throw new InvalidParamsError('Invalid params: task must be an object', { field: 'task', reason: 'type' });
  if (asked && !support)
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: tool ${tool.name} does not run as a task`);
  if (!asked && support === 'required')
    throw new McpError(
      ErrorCode.MethodNotFound,
      era.tasksUtility
        ? `Method not found: tool ${tool.name} runs only as a task (call it with the task parameter)`
        : `Method not found: tool ${tool.name} runs only as a task (2025-11-25, or the 2026-07-28 tasks extension)`,
    );
  return asked;
}

/** Creates the task and answers with its handle, in the shape of the caller's era. */
async function createTask(
  request: HandlerContext,
  tool: ToolEntry,
  args: Record<string, unknown>,
  answers: Record<string, unknown> | undefined,
): Promise<MethodResult> {
  const ttl = (request.params.task as { ttl?: unknown } | undefined)?.ttl;
  const requestedTtl =
    !request.peer.era.modern && Number.isInteger(ttl) && (ttl as number) > 0 ? (ttl as number) : undefined;
  const record = await request.tasks.create(request, tool, args, answers, requestedTtl);
  return request.peer.era.modern
    ? { resultType: 'task', ...modernTask(record, false) }
    : { task: sessionEraTask(record) };
}

import { McpError, InvalidParamsError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';
import { TERMINAL_TASK_STATUSES } from '../../stores/task.store';
import { declaresTasksExtension, tasksExtensionRequired } from '../../tasks/tasks.constants';
import { sessionEraTask, modernTask } from '../../tasks/task-wire';
import { MethodResult, HandlerContext } from './handler-context';

/**
 * The tasks extension's methods (2026-07-28): `tasks/get`, `tasks/update`, `tasks/cancel`, each only for a request
 * that declared the extension (`-32021` naming it otherwise). `tasks/result` and `tasks/list` do not exist in this
 * era (`-32601`). An unknown id, an expired task and another caller's task get the same `-32602`.
 * @internal
 */
export async function getTask(request: HandlerContext): Promise<MethodResult> {
  requireExtension(request);
  return modernTask(await request.tasks.find(request, request.params.taskId), true);
}

/** `tasks/update`: answers to the questions the task waits on; an empty acknowledgement. @internal */
export async function updateTask(request: HandlerContext): Promise<MethodResult> {
  requireExtension(request);
  const responses = request.params.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
    throw new InvalidParamsError('Invalid params: inputResponses must be an object keyed by the questions asked', {
      field: 'inputResponses',
      reason: 'type',
    });
  await request.tasks.answer(request, request.params.taskId, responses as Record<string, unknown>);
  return {};
}

/** `tasks/cancel`: an empty acknowledgement, for a final task too (idempotent, as the extension says). @internal */
export async function cancelTask(request: HandlerContext): Promise<MethodResult> {
  requireExtension(request);
  await request.tasks.cancel(request, request.params.taskId);
  return {};
}

function requireExtension(request: HandlerContext): void {
  if (!declaresTasksExtension(request.peer.clientCapabilities)) throw tasksExtensionRequired(request.message.method);
}

/**
 * The 2025-11-25 tasks utility: `tasks/get`, `tasks/list` (the caller's own tasks), `tasks/cancel` (the task,
 * cancelled; `-32602` when it was final already). Sessions on other 2025 revisions get `-32601`.
 * @internal
 */
export async function getSessionEraTask(request: HandlerContext): Promise<MethodResult> {
  requireUtility(request);
  return sessionEraTask(await request.tasks.find(request, request.params.taskId));
}

/** @internal */
export async function listSessionEraTasks(request: HandlerContext): Promise<MethodResult> {
  requireUtility(request);
  const page = await request.tasks.list(request, request.params.cursor);
  return { tasks: page.tasks.map(sessionEraTask), ...(page.next ? { nextCursor: page.next } : {}) };
}

/** @internal */
export async function cancelSessionEraTask(request: HandlerContext): Promise<MethodResult> {
  requireUtility(request);
  const { before, after } = await request.tasks.cancel(request, request.params.taskId);
  if (TERMINAL_TASK_STATUSES.has(before.status))
    throw new InvalidParamsError(`Cannot cancel task: already in terminal status '${before.status}'`, {
      field: 'taskId',
      reason: 'task_terminal',
    });
  return sessionEraTask(after);
}

/** @internal */
export function requireUtility(request: HandlerContext): void {
  if (!request.peer.era.tasksUtility) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
}

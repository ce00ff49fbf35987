import { McpError, InvalidParamsError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';
import { TERMINAL_TASK_STATUSES } from '../../stores/task.store';
import { declaresTasksExtension, tasksExtensionRequired } from '../../tasks/tasks.constants';
import { sessionEraTask, modernTask } from '../../tasks/task-wire';
import { MethodResult, RequestScope } from './handler-context';

/**
 * The tasks extension's methods (2026-07-28): `tasks/get`, `tasks/update`, `tasks/cancel`, each only for a request
 * that declared the extension (`-32021` naming it otherwise). `tasks/result` and `tasks/list` do not exist in this
 * era (`-32601`). An unknown id, an expired task and another caller's task get the same `-32602`.
 * @internal
 */
export async function getTask(scope: RequestScope): Promise<MethodResult> {
  requireExtension(scope);
  return modernTask(await scope.tasks.find(scope, scope.params.taskId), true);
}

/** `tasks/update`: answers to the questions the task waits on; an empty acknowledgement. @internal */
export async function updateTask(scope: RequestScope): Promise<MethodResult> {
  requireExtension(scope);
  const responses = scope.params.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
    throw new InvalidParamsError('Invalid params: inputResponses must be an object keyed by the questions asked', {
      field: 'inputResponses',
      reason: 'type',
    });
  await scope.tasks.answer(scope, scope.params.taskId, responses as Record<string, unknown>);
  return {};
}

/** `tasks/cancel`: an empty acknowledgement, for a final task too (idempotent, as the extension says). @internal */
export async function cancelTask(scope: RequestScope): Promise<MethodResult> {
  requireExtension(scope);
  await scope.tasks.cancel(scope, scope.params.taskId);
  return {};
}

function requireExtension(scope: RequestScope): void {
  if (!declaresTasksExtension(scope.session.clientCapabilities)) throw tasksExtensionRequired(scope.request.method);
}

/**
 * The 2025-11-25 tasks utility: `tasks/get`, `tasks/list` (the caller's own tasks), `tasks/cancel` (the task,
 * cancelled; `-32602` when it was final already). Sessions on other 2025 revisions get `-32601`.
 * @internal
 */
export async function getSessionEraTask(scope: RequestScope): Promise<MethodResult> {
  requireUtility(scope);
  return sessionEraTask(await scope.tasks.find(scope, scope.params.taskId));
}

/** @internal */
export async function listSessionEraTasks(scope: RequestScope): Promise<MethodResult> {
  requireUtility(scope);
  const page = await scope.tasks.list(scope, scope.params.cursor);
  return { tasks: page.tasks.map(sessionEraTask), ...(page.next ? { nextCursor: page.next } : {}) };
}

/** @internal */
export async function cancelSessionEraTask(scope: RequestScope): Promise<MethodResult> {
  requireUtility(scope);
  const { before, after } = await scope.tasks.cancel(scope, scope.params.taskId);
  if (TERMINAL_TASK_STATUSES.has(before.status))
    throw new InvalidParamsError(`Cannot cancel task: already in terminal status '${before.status}'`, {
      field: 'taskId',
      reason: 'task_terminal',
    });
  return sessionEraTask(after);
}

/** @internal */
export function requireUtility(scope: RequestScope): void {
  if (!scope.session.era.tasksUtility) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
}

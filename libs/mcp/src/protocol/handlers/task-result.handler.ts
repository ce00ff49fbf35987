import { McpError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';
import { McpTaskRecord, TERMINAL_TASK_STATUSES } from '../../stores/task.store';
import { RELATED_TASK_META } from '../../tasks/tasks.constants';
import { sessionEraTaskResult } from '../../tasks/task-wire';
import { MethodResult, HandlerContext } from './handler-context';
import { requireUtility } from './tasks.handler';

/**
 * `tasks/result` (2025-11-25): blocks until the task is final, then answers exactly what the call would have: its
 * result (tied to the task in `_meta`) or its JSON-RPC error. Meanwhile the questions the task waits on are asked on
 * this request's stream, as server requests carrying the task's id, and their answers go to the task, on whichever
 * replica runs it.
 * @internal
 */
export async function taskResult(request: HandlerContext): Promise<MethodResult> {
  requireUtility(request);
  const asking = new Set<string>();
  const askOpen = (task: McpTaskRecord) => {
    for (const [key, question] of Object.entries(task.inputRequests)) {
      if (asking.has(key)) continue;
      asking.add(key);
      const params = {
        ...question.params,
        _meta: { ...(question.params._meta as object | undefined), [RELATED_TASK_META]: { taskId: task.id } },
      };
      request.peer
        .request(request.sink, question.method, params, request.options.clientRequestTimeoutMs, request.signal)
        .then((answer) => request.tasks.answer(request, task.id, { [key]: answer }))
        .catch(() => asking.delete(key)); // not answered here: asked again on the next change, or by tasks/update
    }
    return false;
  };
  const task = await request.tasks.settle(
    request,
    request.params.taskId,
    (t) => TERMINAL_TASK_STATUSES.has(t.status) || (t.status === 'input_required' && askOpen(t)),
  );
  if (!task) throw new McpError(ErrorCode.ServerError, 'Request cancelled');
  if (task.error) throw new McpError(task.error.code, task.error.message, task.error.data as Record<string, unknown>);
  if (task.status === 'cancelled')
    throw new McpError(ErrorCode.ServerError, 'The task was cancelled before it finished');
  return sessionEraTaskResult(task);
}

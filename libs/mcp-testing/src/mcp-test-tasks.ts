import type { Client } from '@modelcontextprotocol/client';

/** How a task ended, as {@link McpTestClient.runTask} saw it. */
export interface McpTestTaskOutcome {
  taskId: string;
  /** `completed`, `failed` or `cancelled`. */
  status: string;
  /** The call's result (a completed task; a 2025 task that failed with a tool error too). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error of a failed task. */
  error?: { code: number; message: string; data?: unknown };
  /** The `statusMessage` values seen while polling, in order, without repeats (the task's progress). */
  statusMessages: string[];
}

/** Answers a question a task asks (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export type McpTestAnswer = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

const TASKS = 'io.modelcontextprotocol/tasks';
const FINAL = ['completed', 'failed', 'cancelled'];
/** Accepts any result: the SDK client does not know the task shapes of either era. */
const anything = {
  '~standard': { version: 1 as const, vendor: 'mcp-testing', validate: (value: unknown) => ({ value }) },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The fields of the answers this driver reads (a task handle, a task, an interim result). */
interface TaskWire {
  resultType?: string;
  taskId?: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
  result?: Record<string, unknown>;
  error?: McpTestTaskOutcome['error'];
}

/**
 * A 2025-11-25 task: `tools/call` with `task`, then the blocking `tasks/result`, during which the SDK client answers
 * the task's questions with the handlers it was connected with.
 * @internal
 */
export async function runLegacyTask(
  sdk: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<McpTestTaskOutcome> {
  const created = (await sdk.request(
    { method: 'tools/call', params: { name, arguments: args, task: {} } },
    anything,
  )) as { task?: { taskId?: string } };
  const taskId = created.task?.taskId;
  if (!taskId) throw new Error(`runTask: ${name} did not answer with a task: ${JSON.stringify(created)}`);
  let result: Record<string, unknown> | undefined;
  let error: McpTestTaskOutcome['error'];
  try {
    result = (await sdk.request({ method: 'tasks/result', params: { taskId } }, anything)) as Record<string, unknown>;
  } catch (e) {
    const { code, message, data } = e as { code: number; message: string; data?: unknown };
    error = { code, message, data };
  }
  const task = (await sdk.request({ method: 'tasks/get', params: { taskId } }, anything)) as {
    status: string;
    statusMessage?: string;
  };
  return { taskId, status: task.status, result, error, statusMessages: task.statusMessage ? [task.statusMessage] : [] };
}

/**
 * A 2026-07-28 task over the tasks extension, on its own wire (no official client speaks the extension yet): the
 * call (with multi round-trip rounds first, for a tool that asks before its task), then `tasks/get` at the suggested
 * interval, answering `inputRequests` through `tasks/update`, until the task is final.
 * @internal
 */
export async function runModernTask(
  url: string,
  token: string | undefined,
  capabilities: Record<string, unknown>,
  answer: McpTestAnswer,
  name: string,
  args: Record<string, unknown>,
): Promise<McpTestTaskOutcome> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'mcp-testing', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': { ...capabilities, extensions: { [TASKS]: {} } },
  };
  const post = modernPoster(url, token, meta);
  const answers = async (requests: Record<string, { method: string; params: Record<string, unknown> }>) =>
    Object.fromEntries(
      await Promise.all(Object.entries(requests).map(async ([key, q]) => [key, await answer(q.method, q.params)])),
    );

  let created = await post('tools/call', { name, arguments: args }, name);
  while (created.resultType === 'input_required') {
    const inputResponses = await answers(created.inputRequests ?? {});
    created = await post(
      'tools/call',
      { name, arguments: args, inputResponses, requestState: created.requestState },
      name,
    );
  }
  if (created.resultType !== 'task')
    throw new Error(`runTask: ${name} did not answer with a task: ${JSON.stringify(created)}`);
  const taskId = created.taskId as string;
  const statusMessages: string[] = [];
  const answered = new Set<string>();
  for (;;) {
    const task = await post('tasks/get', { taskId }, taskId);
    if (task.statusMessage && statusMessages.at(-1) !== task.statusMessage) statusMessages.push(task.statusMessage);
    if (FINAL.includes(task.status))
      return { taskId, status: task.status, result: task.result, error: task.error, statusMessages };
    if (task.status === 'input_required') {
      const open = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key)));
      for (const key of Object.keys(open)) answered.add(key);
      if (Object.keys(open).length)
        await post('tasks/update', { taskId, inputResponses: await answers(open as never) }, taskId);
    }
    await sleep(Math.min(task.pollIntervalMs ?? 200, 200));
  }
}

/**
 * Posts 2026-07-28 requests with the routing headers and `_meta` the era needs, numbering them: each answers its
 * result (from JSON or the last SSE event), or throws its JSON-RPC error.
 */
function modernPoster(url: string, token: string | undefined, meta: Record<string, unknown>) {
  let id = 0;
  return async (method: string, params: Record<string, unknown>, routed: string): Promise<TaskWire> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': routed,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } }),
    });
    const text = await res.text();
    const body = JSON.parse(
      text.startsWith('{')
        ? text
        : (
            text
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .pop() ?? ''
          ).slice(6),
    );
    if (body.error) throw Object.assign(new Error(body.error.message), body.error);
    return body.result as TaskWire;
  };
}

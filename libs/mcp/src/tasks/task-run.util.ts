import { McpPrincipal } from '../auth/mcp-principal';
import { toJsonRpcError } from '../errors/error-mapper';
import { McpTaskPatch, McpTaskRecord } from '../stores/task.store';

/** The patch that fails a task with a JSON-RPC error (its message shown as the status message too). @internal */
export const failed = (code: number, message: string): McpTaskPatch => ({
  status: 'failed',
  error: { code, message },
  statusMessage: message,
});

/** Bounds of what a failed task keeps of its error: a tool's error must not make the record grow past reason. */
const MAX_ERROR_MESSAGE_CHARS = 1_024;
const MAX_ERROR_DATA_CHARS = 4_096;

/**
 * The patch that fails a task with a run's JSON-RPC error; a long message is cut and oversized `data` dropped (the
 * task keeps the error until it expires).
 * @internal
 */
export function failedWith(e: { code: number; message: string; data?: unknown }): McpTaskPatch {
  const message =
    e.message.length > MAX_ERROR_MESSAGE_CHARS ? `${e.message.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : e.message;
  const keep = e.data !== undefined && JSON.stringify(e.data).length <= MAX_ERROR_DATA_CHARS;
  return {
    status: 'failed',
    error: { code: e.code, message, ...(keep ? { data: e.data } : {}) },
    statusMessage: message,
  };
}

/** The caller as the run's guards and handler see it, rebuilt from what the task kept. @internal */
export function principalOf(task: McpTaskRecord): McpPrincipal | undefined {
  const p = task.caller.principal;
  if (!p) return undefined;
  return {
    subject: p.subject,
    scopes: new Set(p.scopes),
    claims: p.claims,
    ...(p.allScopes ? { allScopes: true } : {}),
  };
}

/**
 * The run's patch, or, as soon as `signal` aborts, the failure its reason stands for, without waiting for the tool: a
 * tool that does not pass its signal on (or waits on something that cannot be stopped) must not keep a worker place
 * and its caller's run place once its task is cancelled. What the tool returns afterwards is dropped.
 * @internal
 */
export function untilStopped(work: Promise<McpTaskPatch>, signal: AbortSignal): Promise<McpTaskPatch> {
  if (signal.aborted) return Promise.resolve(failedWith(toJsonRpcError(signal.reason, 'task run')));
  return new Promise<McpTaskPatch>((resolve) => {
    const stopped = () => resolve(failedWith(toJsonRpcError(signal.reason, 'task run')));
    signal.addEventListener('abort', stopped, { once: true });
    work.then(
      (patch) => {
        signal.removeEventListener('abort', stopped);
        resolve(patch);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stopped);
        resolve(failedWith(toJsonRpcError(error, 'task run')));
      },
    );
  });
}

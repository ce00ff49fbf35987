import { randomBytes } from 'node:crypto';
import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';

/** The 2026-07-28 tasks extension's identifier, declared in capabilities (`extensions`) by client and server. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The 2025-11-25 `_meta` key tying a message to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** 128 random bits, URL-safe: a task id cannot be guessed or enumerated (22 characters). @internal */
export const newTaskId = (): string => randomBytes(16).toString('base64url');

/** The longest task id a request may name: anything longer is not one of ours. @internal */
export const MAX_TASK_ID_CHARS = 64;

/** Whether a 2026-07-28 request declared the tasks extension in its capabilities. @internal */
export function declaresTasksExtension(capabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = capabilities.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const declared = (extensions as Record<string, unknown>)[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** `-32021` naming the tasks extension, for `what` needs it (a required task tool, `tasks/*`, task notifications). */
export const tasksExtensionRequired = (what: string): McpError =>
  new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );

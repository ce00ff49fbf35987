import { McpError } from '../errors/mcp.error';
import { toJsonRpcError } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { ToolEntry } from '../registry/registry-entries';
import { McpPeer } from '../context/mcp-peer';
import { invoke } from '../pipeline/invocation.stage';
import { RequestContext } from '../pipeline/request-context';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import { prepareToolArguments } from '../pipeline/tool-arguments';
import { toolCallResult, toolErrorResult } from '../pipeline/tool-result.normalizer';
import { ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { McpTaskPatch, McpTaskRecord, McpTaskStore } from '../stores/task.store';
import { McpTaskEvents } from './task-events';
import { McpTaskWatch } from './task-watch';
import { failedWith, principalOf } from './task-run.util';
import { TaskInputs } from './task-inputs';
import { taskStatusSink } from './task-status.sink';

/** A run's calls are bounded by the task caps, not the caller's call limits (a task may run for an hour). */
const UNLIMITED = { call: <T>(_c: unknown, _t: unknown, _r: unknown, work: () => Promise<T>) => work() };

/** What a task's run borrows from its runner. @internal */
export interface TaskToolDeps {
  options: RequestContext['options'];
  store: McpTaskStore;
  events: McpTaskEvents;
  watch: McpTaskWatch;
  states: RequestStateCodec;
}

/**
 * Runs a task's tool through the same invocation stage as a call in a request (Nest pipeline, timeout, error
 * mapping), as the caller who created the task, and returns the patch that records its outcome.
 * @internal
 */
export async function invokeTaskTool(
  deps: TaskToolDeps,
  task: McpTaskRecord,
  tool: ToolEntry,
  controller: AbortController,
  downstreams?: string[],
): Promise<McpTaskPatch> {
  const version = task.caller.protocolVersion as ProtocolVersion;
  const principal = principalOf(task);
  const { transport, clientInfo, clientCapabilities } = task.caller;
  const peer = McpPeer.forRequest(transport, version, clientInfo, clientCapabilities, undefined, principal);
  try {
    const prepared = await prepareToolArguments(tool, task.arguments);
    if ('violations' in prepared) return finished(toolErrorResult(`Invalid arguments for tool ${tool.name}`), version);
    const outcome = await invoke(
      { ...taskScope(deps, task, tool, controller, peer), downstreams },
      {
        kind: 'tool',
        target: tool.name,
        timeoutMs: Math.max(1, task.deadline - Date.now()),
        method: tool.handler,
        args: prepared.value,
      },
    );
    // A task's questions wait in the task: a run never ends with open multi round-trip questions.
    if ('inputRequired' in outcome) throw new McpError(ErrorCode.InternalError, 'Internal error');
    // A task's result is kept for its ttl: cut to `tasks.maxBytes` when that is the tighter bound.
    const maxBytes = Math.min(deps.options.limits.maxResultBytes, deps.options.tasks.maxBytes);
    return finished(toolCallResult(outcome, tool, maxBytes, version), version);
  } catch (error) {
    // A protocol error (a cancellation, the timeout, an internal fault): `failed` with the JSON-RPC error.
    return failedWith(toJsonRpcError(error, `tool ${tool.name}`));
  }
}

/** The request a task's run stands in: the caller as a peer and its principal, the task's own sink and questions. */
function taskScope(
  { options, store, events, watch, states }: TaskToolDeps,
  task: McpTaskRecord,
  tool: ToolEntry,
  controller: AbortController,
  peer: McpPeer,
): RequestContext {
  const inputTimeoutMs = Math.max(1, Math.min(options.tasks.inputTimeoutMs, task.deadline - Date.now()));
  return {
    requestId: task.caller.requestId,
    principal: peer.principal,
    abort: (reason) => controller.abort(reason),
    // A progress token of its own: the run's progress becomes the task's status message.
    message: {
      jsonrpc: '2.0',
      id: task.id,
      method: 'tools/call',
      params: { name: tool.name, arguments: task.arguments, _meta: { progressToken: task.id } },
    },
    peer,
    sink: taskStatusSink(store, events, task.id),
    signal: controller.signal,
    options,
    admission: UNLIMITED,
    states,
    task: {
      id: task.id,
      questions: new TaskInputs(
        task.id,
        task.answers,
        store,
        events,
        watch,
        controller.signal,
        inputTimeoutMs,
        options.tasks,
      ),
    },
  };
}

/** A result: `completed` (2025-11-25 reports a tool error as `failed`, with the result kept for `tasks/result`). */
function finished(result: Record<string, unknown>, version: ProtocolVersion): McpTaskPatch {
  const utilityFailure = eraFeatures(version).tasksUtility && result.isError === true;
  return { status: utilityFailure ? 'failed' : 'completed', result };
}

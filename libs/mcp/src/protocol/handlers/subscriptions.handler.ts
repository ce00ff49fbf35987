import { InvalidParamsError } from '../../errors/mcp.error';
import { declaresTasksExtension, tasksExtensionRequired } from '../../tasks/tasks.constants';
import { modernTask } from '../../tasks/task-wire';
import { McpTaskRecord } from '../../stores/task.store';
import { McpAdmission } from '../../admission/mcp-admission.service';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { JsonRpcNotification } from '../../wire/json-rpc';
import { MetaKey } from '../../wire/meta-keys';
import { hasScopes } from '../../auth/scopes';
import { MethodHandler, MethodResult, HandlerContext } from './handler-context';

/** URIs one stream may follow. */
const MAX_URIS = 1_000;
/** Tasks one stream may follow. */
const MAX_TASKS = 100;
const LIST_FIELDS = [
  ['toolsListChanged', 'tools'],
  ['promptsListChanged', 'prompts'],
  ['resourcesListChanged', 'resources'],
] as const;

/**
 * `subscriptions/listen` (2026-07-28): a long-lived answer carrying only the changes the client opted in to. The
 * first message is the acknowledgement of what the server will honour (lists it has, resources that exist and the
 * caller may read); every message carries the request id as `subscriptionId`. Changes from any replica arrive over
 * the message bus. It ends when the client closes the stream (no answer) or the server shuts down (a result).
 * @internal
 */
export function listenHandler(
  sessions: McpSessionManager,
  capabilities: () => Record<string, unknown>,
  admission: Pick<McpAdmission, 'stream'>,
): MethodHandler {
  return async (request: HandlerContext): Promise<MethodResult> => {
    const { ack, lists, uris, taskIds } = listenFilterOf(request, capabilities);
    // Capped per caller and per replica (a stream holds memory for as long as it is open).
    const release = await admission.stream(request.peer.transport, request.principal);

    const id = request.message.id;
    const tag = (m: JsonRpcNotification): JsonRpcNotification => ({
      ...m,
      params: { ...m.params, _meta: { ...(m.params?._meta as object | undefined), [MetaKey.subscriptionId]: id } },
    });
    // The caller's own tasks only: another's, or an unknown id, is left out of the acknowledgement.
    const tell = (task: McpTaskRecord) =>
      request.sink.send(tag({ jsonrpc: '2.0', method: 'notifications/tasks', params: modernTask(task, true) }));
    const tasks = taskIds
      ? await request.tasks.follow(request, taskIds, tell).catch((error: unknown) => {
          release();
          throw error;
        })
      : undefined;
    if (tasks) ack.taskIds = tasks.followed.map((t) => t.id);
    request.sink.send(
      tag({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: ack } }),
    );
    // Where each task stands now, then its changes: nothing that happened before the stream opened is missed.
    for (const task of tasks?.followed ?? []) tell(task);
    return new Promise((resolve) => {
      const done = () => {
        release();
        remove();
        tasks?.stop();
        resolve({ _meta: { [MetaKey.subscriptionId]: id } });
      };
      const remove = sessions.listeners.add({
        filter: { lists, uris },
        send: (m) => void request.sink.send(tag(m)),
        end: done,
      });
      // The client closed the stream: the runner sees the cancellation and sends nothing. Closed already while the
      // place was being taken: give it back now (the abort event has fired).
      if (request.signal.aborted) return done();
      request.signal.addEventListener('abort', done, { once: true });
    });
  };
}

/** What a listen stream follows, and the acknowledgement that says so to the client. */
interface ListenFilter {
  ack: Record<string, unknown>;
  lists: Set<string>;
  uris: Set<string>;
  taskIds: string[] | undefined;
}

/** Reads the `notifications` filter: only what the server has and the caller may see is followed and acknowledged. */
function listenFilterOf(request: HandlerContext, capabilities: () => Record<string, unknown>): ListenFilter {
  const filter = request.params.notifications;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    throw new InvalidParamsError('Invalid params: notifications must be an object (the filter)', {
      field: 'notifications',
      reason: 'required',
    });
  const wanted = filter as Record<string, unknown>;
  const caps = capabilities() as Record<string, { listChanged?: boolean; subscribe?: boolean } | undefined>;
  const ack: Record<string, unknown> = {};
  const lists = new Set<string>();
  for (const [field, kind] of LIST_FIELDS) {
    if (wanted[field] === true && caps[kind]?.listChanged) {
      lists.add(kind);
      ack[field] = true;
    }
  }
  const uris = readableUris(request, wanted.resourceSubscriptions);
  if (wanted.resourceSubscriptions !== undefined && caps.resources?.subscribe) ack.resourceSubscriptions = [...uris];
  return { ack, lists, uris, taskIds: requestedTasks(request, wanted.taskIds) };
}

/** Tasks a listen stream asks to follow: only with the tasks extension declared (`-32021` otherwise). */
function requestedTasks(request: HandlerContext, requested: unknown): string[] | undefined {
  if (requested === undefined) return undefined;
  if (!declaresTasksExtension(request.peer.clientCapabilities)) throw tasksExtensionRequired('task notifications');
  if (!Array.isArray(requested) || requested.length > MAX_TASKS || requested.some((t) => typeof t !== 'string'))
    throw new InvalidParamsError(`Invalid params: taskIds must be at most ${MAX_TASKS} task id strings`, {
      field: 'notifications.taskIds',
      reason: 'type',
    });
  return [...new Set(requested as string[])];
}

/** The requested URIs that name a resource (or match a template) the caller may read; others are left out. */
function readableUris(request: HandlerContext, requested: unknown): Set<string> {
  if (requested === undefined) return new Set();
  if (!Array.isArray(requested) || requested.length > MAX_URIS || requested.some((u) => typeof u !== 'string'))
    throw new InvalidParamsError(`Invalid params: resourceSubscriptions must be at most ${MAX_URIS} URI strings`, {
      field: 'notifications.resourceSubscriptions',
      reason: 'type',
    });
  const { registry, principal } = request;
  const out = new Set<string>();
  for (const uri of requested as string[]) {
    const entry = registry.resources.get(uri) ?? [...registry.templates.values()].find((t) => t.match(uri) !== null);
    const scopes = entry?.requiredScopes;
    if (entry && (!principal || !scopes?.length || hasScopes(principal, scopes))) out.add(uri);
  }
  return out;
}

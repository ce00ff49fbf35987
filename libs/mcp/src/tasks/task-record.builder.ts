import { propagation, context } from '@opentelemetry/api';
import { callerSubject } from '../auth/mcp-principal';
import { RequestContext } from '../pipeline/request-context';
import { ToolEntry } from '../registry/registry-entries';
import { McpTaskRecord } from '../stores/task.store';
import { ResolvedTasksOptions } from '../options/tasks-options.interface';
import { newTaskId } from './tasks.constants';

/** Who a task belongs to: the caller's subject as its budgets count it (an address for anonymous callers). @internal */
export const taskOwnerOf = (request: RequestContext): string =>
  callerSubject(request.principal, request.peer.transport);

/**
 * The record of a new task for a call of `tool`: its owner, the caller it runs as (the trace it continues), its life
 * and deadline. `requestedTtlMs` is a 2025 client's `task.ttl`.
 * @internal
 */
export function newTaskRecord(
  request: RequestContext,
  tool: ToolEntry,
  args: Record<string, unknown>,
  answers: Record<string, unknown>,
  t: ResolvedTasksOptions,
  requestedTtlMs?: number,
): McpTaskRecord {
  const now = Date.now();
  // A 2025 client may shorten its task's life, never lengthen it past the tool's: kept records are what it costs.
  const lifetime = Math.min(t.maxTtlMs, tool.task?.ttlMs ?? t.ttlMs);
  const ttlMs = Math.max(1_000, Math.min(requestedTtlMs ?? lifetime, lifetime));
  const timeoutMs = tool.task?.timeoutMs ?? t.timeoutMs;
  return {
    id: newTaskId(),
    owner: taskOwnerOf(request),
    tool: tool.name,
    arguments: args,
    caller: callerOf(request),
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs,
    pollIntervalMs: t.pollIntervalMs,
    deadline: now + Math.min(timeoutMs, ttlMs),
    answers,
    inputRequests: {},
    asked: [],
    attempts: 0,
  };
}

/** The caller a task's run acts as: its peer's era and capabilities, its token's claims, its trace. */
function callerOf(request: RequestContext): McpTaskRecord['caller'] {
  const { peer, principal } = request;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return {
    protocolVersion: peer.protocolVersion,
    transport: peer.transport,
    clientCapabilities: peer.clientCapabilities,
    ...(peer.clientInfo ? { clientInfo: peer.clientInfo } : {}),
    ...(principal && !principal.anonymous
      ? {
          principal: {
            subject: principal.subject,
            scopes: [...principal.scopes],
            claims: { ...principal.claims },
            ...(principal.allScopes ? { allScopes: true } : {}),
          },
        }
      : {}),
    ...(peer.sessionId ? { sessionId: peer.sessionId } : {}),
    ...(request.requestId ? { requestId: request.requestId } : {}),
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { McpError } from '../errors/mcp.error';
import { toJsonRpcError } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { McpPrincipal } from '../auth/mcp-principal';
import { CallLimiter, McpCallLimits, McpCaller } from './call-limiter';
import { StreamLimiter, StreamRelease } from './stream-limiter';
import { SessionBudget } from './session-budget';

/** A refusal as a JSON-RPC error: what a message that will not run is answered with. @internal */
export interface JsonRpcRefusal {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The one place a request is admitted: every budget of request-kinds.ts is passed through a method of this class,
 * called at one point per request kind (its row says which, in which order). It delegates the counting to the
 * limiters beside it and to the stores under them.
 * @internal
 */
@Injectable()
export class McpAdmission {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly calls: CallLimiter,
    private readonly streams: StreamLimiter,
    private readonly sessions: SessionBudget,
  ) {}

  /**
   * `known_over`: seconds a caller this replica saw over its request budget must still wait, its request then
   * refused (and counted) before its body is read; undefined when it may send.
   */
  unread(transport: string, principal: McpPrincipal | undefined): number | undefined {
    const wait = this.calls.knownOver(transport, principal);
    if (wait !== undefined) this.calls.refusedUnread(transport, principal);
    return wait;
  }

  /**
   * `requests`: counts one message against the caller's request budget (`label` is its metric target: a method, or
   * `notification`, `unknown_method`...). Throws the `-32003` (or `-32006` when the store cannot be reached).
   */
  request(transport: string, principal: McpPrincipal | undefined, label: string): Promise<void> {
    return this.calls.admitCaller(transport, principal, label);
  }

  /** {@link request} for a message that will not run: the refusal to answer with, or undefined when within budget. */
  async message(
    transport: string,
    principal: McpPrincipal | undefined,
    label: string,
  ): Promise<JsonRpcRefusal | undefined> {
    try {
      await this.calls.admitCaller(transport, principal, label);
      return undefined;
    } catch (error) {
      return toJsonRpcError(error, label);
    }
  }

  /** `batch_size`: the refusal of a batch of `size` messages, or undefined when it may be served. */
  batch(size: number): JsonRpcRefusal | undefined {
    const { maxBatchSize } = this.options.limits;
    if (size <= maxBatchSize) return undefined;
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: a batch holds at most ${maxBatchSize} messages (got ${size})`,
      data: { reason: 'batch_too_large', max: maxBatchSize },
    };
  }

  /** `calls` then `concurrency`: runs `work` within the caller's call budgets and `own` (a tool's `rateLimit`). */
  call<T>(caller: McpCaller, target: string, own: McpCallLimits | undefined, work: () => Promise<T>): Promise<T> {
    return this.calls.run(caller, target, own, work);
  }

  /** `streams`: one of the caller's (and this replica's) stream places, given back by calling the release. */
  stream(transport: string, principal: McpPrincipal | undefined): Promise<StreamRelease> {
    return this.streams.take(transport, principal);
  }

  /** `replay_bytes`: counts the bytes a `Last-Event-ID` resume would send again, or throws the `-32003`. */
  replay(transport: string, principal: McpPrincipal | undefined, bytes: number): Promise<void> {
    return this.calls.admitReplay(transport, principal, bytes);
  }

  /**
   * `draining`, `sessions`, `initialize_rate`: the refusal of a new 2025 session, or undefined when it may open one.
   * Throws when a shared store cannot be reached.
   */
  session(principal: McpPrincipal | undefined): Promise<McpError | undefined> {
    return this.sessions.refusal(principal);
  }
}

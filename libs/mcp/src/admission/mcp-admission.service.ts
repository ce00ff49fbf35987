import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpError, RateLimitedError } from '../errors/mcp.error';
import { toJsonRpcError } from '../errors/error-mapper';
import { ErrorCode } from '../wire/json-rpc';
import { McpPrincipal, callerSubject } from '../auth/mcp-principal';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { RequestBudget } from './request-budget';
import { StreamLimiter, StreamRelease } from './stream-limiter';
import { SessionBudget } from './session-budget';
import { McpAdmissionRefusals, rateLimited } from './admission-refusals';
import { failClosed, limitStoreUnreachable } from './fail-closed';

/** A tool's own limits, from `@McpTool({ rateLimit })`. */
export interface McpCallLimits {
  callsPerMinute?: number;
  maxConcurrent?: number;
}

/** Who a budget is counted for: the caller's token (if any) and the transport it came over. @internal */
export interface McpCaller {
  principal?: McpPrincipal;
  transport: string;
}

/** A refusal as a JSON-RPC error: what a message that will not run is answered with. @internal */
export interface JsonRpcRefusal {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The one place a request is admitted: every budget of request-kinds.ts is passed through a method of this class,
 * called at one point per request kind (its row says which, in which order). It counts the call budgets itself (on
 * the path of every tools/call, prompts/get and resources/read) and delegates the others to the budgets beside it.
 * @internal
 */
@Injectable()
export class McpAdmission {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_LIMIT_STORE) private readonly store: McpLimitStore,
    private readonly requests: RequestBudget,
    private readonly streams: StreamLimiter,
    private readonly sessions: SessionBudget,
    @Optional() private readonly refusals?: McpAdmissionRefusals,
  ) {}

  /**
   * `known_over`: seconds a caller this replica saw over its request budget must still wait, its request then
   * refused (and counted) before its body is read; undefined when it may send.
   */
  unread(transport: string, principal: McpPrincipal | undefined): number | undefined {
    const wait = this.requests.knownOver(transport, principal);
    if (wait !== undefined) this.requests.refusedUnread(transport, principal);
    return wait;
  }

  /**
   * `requests`: counts one message against the caller's request budget (`label` is its metric target: a method, or
   * `notification`, `unknown_method`...). Throws the `-32003` (or `-32006` when the store cannot be reached).
   */
  request(transport: string, principal: McpPrincipal | undefined, label: string): Promise<void> {
    return this.requests.admitCaller(transport, principal, label);
  }

  /** {@link request}, with the refusal returned as the JSON-RPC error to answer with; undefined when within budget. */
  async message(
    transport: string,
    principal: McpPrincipal | undefined,
    label: string,
  ): Promise<JsonRpcRefusal | undefined> {
    try {
      await this.requests.admitCaller(transport, principal, label);
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

  /**
   * `calls` then `concurrency`: runs `work` within the caller's call budgets (per token subject; over stdio, the
   * process) and `own` (a tool's tighter `rateLimit`), or throws `-32003` with `retryAfter` (HTTP 429).
   */
  async call<T>(caller: McpCaller, target: string, own: McpCallLimits | undefined, work: () => Promise<T>): Promise<T> {
    const subject = callerSubject(caller.principal, caller.transport);
    const { callsPerMinute, maxConcurrentCalls } = this.options.limits;
    const key = `s:${subject}`;
    await this.take(key, callsPerMinute, target, subject);
    // A tool's own limits: rare, so their keys are made only for a tool that has them.
    const ownKey = own?.callsPerMinute || own?.maxConcurrent ? `t:${target}:${subject}` : undefined;
    if (own?.callsPerMinute) await this.take(ownKey!, own.callsPerMinute, target, subject);
    await this.slot(key, maxConcurrentCalls, target, subject);
    try {
      if (!own?.maxConcurrent) return await work();
      await this.slot(ownKey!, own.maxConcurrent, target, subject);
      try {
        return await work();
      } finally {
        await this.release(ownKey!);
      }
    } finally {
      await this.release(key);
    }
  }

  /** Takes a concurrency slot of `key`, or throws the `-32003` (or `-32006` when the store cannot be reached). */
  private async slot(key: string, max: number, target: string, subject: string): Promise<void> {
    if (await failClosed(() => this.store.acquire(key, max), limitStoreUnreachable)) return;
    rateLimited(this.refusals, target, 'concurrency', subject);
    throw new RateLimitedError(1, 'Rate limited: too many calls at once; retry when one finishes');
  }

  /** A release that cannot reach the store is not retried: a shared store expires its slots by itself. */
  private async release(key: string): Promise<void> {
    try {
      await this.store.release(key);
    } catch {
      // expired by the store
    }
  }

  /** `streams`: one of the caller's (and this replica's) stream places, given back by calling the release. */
  stream(transport: string, principal: McpPrincipal | undefined): Promise<StreamRelease> {
    return this.streams.take(transport, principal);
  }

  /** `replay_bytes`: counts the bytes a `Last-Event-ID` resume would send again, or throws the `-32003`. */
  replay(transport: string, principal: McpPrincipal | undefined, bytes: number): Promise<void> {
    return this.requests.admitReplay(transport, principal, bytes);
  }

  /**
   * `draining`, `sessions`, `initialize_rate`: the refusal of a new 2025 session, or undefined when it may open one.
   * Throws when a shared store cannot be reached.
   */
  session(principal: McpPrincipal | undefined): Promise<McpError | undefined> {
    return this.sessions.refusal(principal);
  }

  private async take(key: string, perMinute: number, target: string, subject: string): Promise<void> {
    const verdict = await failClosed(() => this.store.consume(key, perMinute, 60), limitStoreUnreachable);
    if (!verdict.ok) {
      rateLimited(this.refusals, target, 'rate', subject);
      throw new RateLimitedError(verdict.retryAfterSec);
    }
  }
}

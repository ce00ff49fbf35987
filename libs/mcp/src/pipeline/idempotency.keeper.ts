import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { InvalidParamsError, McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { MCP_IDEMPOTENCY_STORE, McpIdempotencyStore } from '../stores/idempotency.store';
import { failClosed, storeUnreachable } from '../admission/fail-closed';

/** The `_meta` key marking a result answered from a kept first answer (`true`), not by running the tool. */
export const IDEMPOTENT_REPLAY_META_KEY = 'corporate/idempotent-replay';

/** How long a running claim outlives the tool's timeout, for the answer to be written before it lapses. */
const RUNNING_MARGIN_MS = 30_000;

/** A call of a tool with `mutation.idempotency: { key, replay: true }`, as the invocation stage sees it. @internal */
export interface IdempotentCall {
  /** The caller (token subject; per process over stdio). */
  subject: string;
  tool: string;
  /** The argument holding the key, and the call's arguments as the client sent them. */
  argument: string;
  arguments: Record<string, unknown>;
  timeoutMs: number;
}

/** What the call does next: answer with the kept value, or run and then keep or release. @internal */
export type IdempotentEntry = { replay: unknown } | { keep(value: unknown): Promise<void>; release(): Promise<void> };

/**
 * The platform's replay of first answers (corporate §9.3, docs/compliance.md#s9: idempotency made real across
 * replicas): before a call with an idempotency key runs, its key is claimed atomically in the configured store under
 * (caller, tool, key). The claim holder runs the tool and keeps its answer for `limits.idempotencyTtlMs`; a repeat with
 * the same arguments gets that answer, whatever replica it reaches; a repeat with other arguments is `-32602`
 * `idempotency_key_reused`; one that arrives while the first still runs is `-32007` `idempotency_in_progress`. A failed
 * call keeps nothing: a retry runs.
 * @internal
 */
@Injectable()
export class IdempotencyKeeper {
  private readonly log = new Logger('McpIdempotency');

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_IDEMPOTENCY_STORE) private readonly store: McpIdempotencyStore,
  ) {}

  async enter(call: IdempotentCall): Promise<IdempotentEntry> {
    const limits = this.options.limits;
    const key = call.arguments[call.argument];
    const id = digest(JSON.stringify([call.subject, call.tool, key]));
    const fingerprint = digest(canonical(call.arguments));
    const claim = await this.reach(() =>
      this.store.claim(id, call.subject, fingerprint, {
        runningTtlMs: call.timeoutMs + RUNNING_MARGIN_MS,
        maxPerSubject: limits.idempotencyKeysPerSubject,
        maxKeys: limits.idempotencyMaxKeys,
      }),
    );
    switch (claim.state) {
      case 'claimed':
        return {
          keep: (value) => this.keep(id, call.subject, claim.token, value),
          release: () => this.store.release(id, call.subject, claim.token).catch((e) => this.lost('release', e)),
        };
      case 'full':
        throw this.full(claim.bound, Math.max(1, Math.ceil(claim.retryAfterMs / 1000)));
      default:
        break;
    }
    if (claim.fingerprint !== fingerprint)
      throw new InvalidParamsError(
        `Invalid params: ${call.argument} was already used for a call with other arguments; ` +
          `send a new ${call.argument} for a new request, or repeat the first call's arguments exactly`,
        { field: call.argument, reason: 'idempotency_key_reused' },
      );
    if (claim.state === 'running')
      throw new McpError(
        ErrorCode.Conflict,
        `Conflict: a call with this ${call.argument} is still running; retry shortly to get its answer`,
        { reason: 'idempotency_in_progress', retryAfter: 1 },
      );
    if (claim.answer === null)
      throw new McpError(
        ErrorCode.Conflict,
        `Conflict: a call with this ${call.argument} already ran; its answer was too large to keep, ` +
          `so it is neither repeated nor run again`,
        { reason: 'idempotency_answer_not_kept' },
      );
    return { replay: (JSON.parse(claim.answer) as { v?: unknown }).v };
  }

  /** The answer kept for repeats, or (larger than `idempotencyMaxAnswerBytes`) only the fact that the call ran. */
  private async keep(id: string, subject: string, token: string, value: unknown): Promise<void> {
    const limits = this.options.limits;
    let text: string | null;
    try {
      text = JSON.stringify({ v: value });
    } catch {
      text = null; // not JSON (a cycle, a BigInt): the answer cannot be kept, the fact that the call ran can
    }
    if (text !== null && Buffer.byteLength(text) > limits.idempotencyMaxAnswerBytes) text = null;
    await this.store.keep(id, subject, token, text, limits.idempotencyTtlMs).catch((e) => this.lost('keep', e));
  }

  /** A store that cannot be reached after the call ran: its claim lapses by itself; a repeat then runs again. */
  private lost(what: string, error: unknown): void {
    this.log.warn(`could not ${what} an idempotency key: ${(error as Error)?.message ?? String(error)}`);
  }

  private full(bound: 'subject' | 'deployment', retryAfter: number): McpError {
    return bound === 'subject'
      ? new McpError(
          ErrorCode.RateLimited,
          'Rate limited: too many idempotency keys held by this caller; retry later',
          {
            reason: 'too_many_idempotency_keys',
            retryAfter,
          },
        )
      : new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the idempotency store is full; retry later', {
          reason: 'idempotency_capacity',
          retryAfter,
        });
  }

  /** Without the store the promise "a repeat changes nothing" cannot be kept: the call is refused, not run. */
  private reach<T>(operation: () => Promise<T>): Promise<T> {
    return failClosed(operation, () => storeUnreachable('idempotency', 'idempotency_store_unavailable'));
  }
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** JSON with object keys sorted at every level: the same arguments give the same text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

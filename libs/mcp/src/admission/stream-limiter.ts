import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpPrincipal, callerSubject } from '../auth/mcp-principal';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { McpAdmissionRefusals } from './admission-refusals';
import { failClosed, limitStoreUnreachable } from './fail-closed';

/** Gives a stream's place back; calling it again does nothing. */
export type StreamRelease = () => void;

/**
 * Places for long-lived streams (a 2025 session's GET stream, `subscriptions/listen`, a legacy `GET /sse`): each holds
 * about 0.2 MB of memory for as long as it is open, so they are capped per replica (`limits.maxStreams`, sized against
 * the 512 Mi memory limit of the Kubernetes base) and per caller (`limits.maxStreamsPerSubject`; with a shared store,
 * for the whole deployment, as concurrency slots in Redis that the replica holding the stream renews). One token can
 * no longer hold every stream of a replica. Taken through {@link McpAdmission} only.
 * @internal
 */
@Injectable()
export class StreamLimiter {
  private held = 0;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_LIMIT_STORE) private readonly store: McpLimitStore,
    @Optional() private readonly refusals?: McpAdmissionRefusals,
  ) {}

  /** Streams open in this process. */
  get open(): number {
    return this.held;
  }

  /**
   * Takes a place for one stream of `principal`, or throws: `-32003` (429) past the caller's cap, `-32006` (503) past
   * this replica's or when the store cannot be reached.
   */
  async take(transport: string, principal: McpPrincipal | undefined): Promise<StreamRelease> {
    const { maxStreams, maxStreamsPerSubject } = this.options.limits;
    const subject = callerSubject(principal, transport);
    // Counted before the store is asked, so concurrent takes cannot all pass the replica's cap.
    if (++this.held > maxStreams) {
      this.held--;
      this.refused('streams_total', subject);
      throw new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: this instance holds all the streams it may', {
        reason: 'stream_capacity',
        retryAfter: 5,
      });
    }
    const key = `streams:${subject}`;
    const taken = await failClosed(
      () => this.store.acquire(key, maxStreamsPerSubject),
      () => {
        this.held--;
        return limitStoreUnreachable();
      },
    );
    if (!taken) {
      this.held--;
      this.refused('streams', subject);
      throw new McpError(
        ErrorCode.RateLimited,
        `Rate limited: at most ${maxStreamsPerSubject} open streams per caller; close one first`,
        { reason: 'stream_limit', retryAfter: 5 },
      );
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      void this.store.release(key).catch(() => undefined);
    };
  }

  private refused(limit: string, subject: string): void {
    this.refusals?.refused({ target: 'streams', limit, reason: `stream_limit:${limit}`, subject });
  }
}

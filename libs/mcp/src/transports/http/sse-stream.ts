import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { JsonRpcMessage } from '../../wire/json-rpc';
import { MessageSink } from '../../wire/message-sink';
import { McpEventStore } from '../../stores/event.store';

const KEEPALIVE_MS = 25_000;

/** What a stream tells its owner, and asks it. @internal */
export interface SseStreamHooks {
  /** The connection went (the stream lives on for a resume). */
  onDetach?: () => void;
  /** The stream ended; called once (gives back its place, see StreamLimiter). */
  onEnd?: () => void;
  /** Whether an event of `bytes` may be kept for resumption (see EventLogBudget); kept when absent. */
  keep?: (bytes: number) => boolean;
}

/**
 * One SSE stream of a session: every message is stored (for `Last-Event-ID` resumption) and
 * written to the connection attached at the moment, if any. A dropped connection does not end the
 * stream; a resumed one takes over.
 * @internal
 */
export class SseStream implements MessageSink {
  readonly id = randomBytes(12).toString('base64url').replace(/_/g, '-');
  private res: ServerResponse | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly store: McpEventStore,
    readonly sessionId: string,
    private readonly hooks: SseStreamHooks = {},
  ) {
    store.open(this.id, sessionId);
  }

  /** Starts (or resumes) the stream on `res`. `primeRetryMs` sends the 2025-11-25 priming event. */
  attach(res: ServerResponse, headers: Record<string, string>, primeRetryMs?: number): void {
    // A resume while the previous connection is still open moves the stream: stop the old
    // connection's keepalive and end it, or it would hang open (and its timer leak) for good.
    const previous = this.res;
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = undefined;
    this.res = res;
    if (previous && previous !== res && writable(previous)) previous.end();
    // A broken connection must never become an unhandled 'error' event (that would end the process).
    res.on('error', () => undefined);
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    if (primeRetryMs !== undefined) res.write(`id: ${this.id}_0\nretry: ${primeRetryMs}\ndata: \n\n`);
    res.flushHeaders?.();
    this.keepalive = setInterval(() => this.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => {
      if (this.res !== res) return;
      this.detach();
    });
  }

  /** Writes a replayed event (framed already) during a resume. */
  writeFrame(framed: string): void {
    this.write(framed);
  }

  send(message: JsonRpcMessage): boolean {
    if (this.ended) return false;
    const data = JSON.stringify(message);
    // Past the event log's byte budget the event is sent without an id and not kept: a resume cannot replay it.
    if (this.hooks.keep && !this.hooks.keep(data.length)) {
      this.write(`event: message\ndata: ${data}\n\n`);
      return true;
    }
    this.write(frame(this.store.append(this.id, data), data));
    return true;
  }

  /** Ends the stream after its last message (the response). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.hooks.onEnd?.();
    this.store.complete(this.id);
    const res = this.res;
    this.detach();
    if (res && writable(res)) res.end();
  }

  /** Closes the connection but not the stream: the client may come back with `Last-Event-ID`. */
  dropConnection(retryMs: number): void {
    const res = this.res;
    if (!res) return;
    this.write(`retry: ${retryMs}\n\n`);
    this.detach();
    if (writable(res)) res.end();
  }

  /** True while a connection is attached (a dropped one can be resumed with `Last-Event-ID`). */
  get connected(): boolean {
    return this.res !== undefined && !this.ended;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private write(chunk: string): void {
    if (this.res && writable(this.res)) this.res.write(chunk);
  }

  private detach(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = undefined;
    this.res = undefined;
    this.hooks.onDetach?.();
  }
}

const writable = (res: ServerResponse) => !res.writableEnded && !res.destroyed;
/** One SSE event carrying one JSON-RPC message, serialised already. @internal */
export const frame = (eventId: string, json: string) => `id: ${eventId}\nevent: message\ndata: ${json}\n\n`;

const FRAME_OVERHEAD = frame('', '').length;
/** The length of {@link frame}'s event, without building it. @internal */
export const frameLength = (eventId: string, json: string) => FRAME_OVERHEAD + eventId.length + json.length;

import type { ServerResponse } from 'node:http';
import { JsonRpcMessage } from '../../wire/json-rpc';
import { MessageSink } from '../../wire/message-sink';
import { McpSession } from '../../sessions/mcp-session';
import { McpEventStore } from '../../stores/event.store';
import { SseStream } from './sse-stream';
import { sendJson } from '../../http-adapter/json-response';
import { EventLogBudget } from '../../limits/event-log-budget';

/**
 * The answer channel of one POSTed request. It stays a plain JSON response unless the handler
 * sends something before its result (progress, a log line, a sampling request); then it upgrades
 * to an SSE stream, so quick calls pay nothing for streaming.
 * @internal
 */
export class PostResponseChannel implements MessageSink {
  private stream: SseStream | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly session: McpSession,
    private readonly store: McpEventStore,
    private readonly headers: Record<string, string>,
    private readonly retryMs: number,
    private readonly streams: Map<string, SseStream>,
    /** The event log's byte budget (asked only when the answer turns into a stream, not on every POST). */
    private readonly budget?: EventLogBudget,
  ) {}

  send(message: JsonRpcMessage): boolean {
    const stream = this.upgrade();
    return stream ? stream.send(message) : false;
  }

  /**
   * Ends the HTTP connection while the call goes on (SSE polling, SEP-1699): the client comes back
   * with `Last-Event-ID` and receives the rest. Only for 2025-11-25 sessions, whose clients expect it.
   */
  closeConnection(): void {
    if (!this.session.era.sseResumePriming) return;
    this.upgrade()?.dropConnection(this.retryMs);
  }

  private upgrade(): SseStream | undefined {
    if (this.stream) return this.stream;
    if (this.res.headersSent) return undefined;
    const stream = new SseStream(this.store, this.session.id, { keep: this.budget?.keeper(this.session) });
    this.streams.set(stream.id, stream);
    stream.attach(this.res, this.headers, this.session.era.sseResumePriming ? this.retryMs : undefined);
    this.stream = stream;
    return stream;
  }

  /** Sends the response: as JSON, or as the last event of the stream. */
  finish(body: string, status: number): void {
    if (this.stream) {
      this.stream.send(JSON.parse(body) as JsonRpcMessage);
      this.stream.end();
      this.streams.delete(this.stream.id);
      return;
    }
    if (this.res.headersSent || this.res.writableEnded) return;
    sendJson(this.res, status, this.headers, body);
  }

  /** Ends the answer without a response (the request was cancelled), releasing its stream. */
  abandon(): void {
    if (!this.stream && !this.res.headersSent) {
      this.res.writeHead(200, { ...this.headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      this.res.end();
      return;
    }
    if (this.stream) {
      this.stream.end();
      this.streams.delete(this.stream.id);
    }
  }

  /** The stream, once upgraded (for server-initiated disconnects). */
  get sse(): SseStream | undefined {
    return this.stream;
  }
}

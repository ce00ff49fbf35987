import type { ServerResponse } from 'node:http';
import { JsonRpcMessage } from '../../wire/json-rpc';
import { MessageSink } from '../../wire/message-sink';
import { sendJson } from '../../http-adapter/json-response';

const KEEPALIVE_MS = 25_000;

/**
 * The answer of one 2026-07-28 request: plain JSON, upgraded to an SSE stream of this request alone when the call
 * sends something first (progress, a log line). Nothing is stored: the revision has no resumption, and the client
 * closing the connection is the cancellation of the request (`closed`).
 * @internal
 */
export class ModernResponseChannel implements MessageSink {
  private streaming = false;
  private keepalive: NodeJS.Timeout | undefined;
  private readonly aborted = new AbortController();

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: Record<string, string> = {},
  ) {
    res.on('error', () => undefined);
    res.on('close', () => {
      this.stopKeepalive();
      if (!res.writableFinished) this.aborted.abort();
    });
  }

  /** Aborted when the client went away before the answer. */
  get closed(): AbortSignal {
    return this.aborted.signal;
  }

  send(message: JsonRpcMessage): boolean {
    if (this.aborted.signal.aborted || this.res.writableEnded) return false;
    if (!this.streaming) {
      if (this.res.headersSent) return false;
      this.streaming = true;
      this.res.writeHead(200, {
        ...this.headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      });
      this.keepalive = setInterval(() => this.res.write(': keepalive\n\n'), KEEPALIVE_MS);
      this.keepalive.unref();
    }
    this.res.write(`data: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** Sends the response: as JSON with `status`, or as the stream's last event. */
  finish(body: string, status: number, extraHeaders: Record<string, string> = {}): void {
    this.stopKeepalive();
    if (this.res.writableEnded) return;
    if (this.streaming) {
      this.res.end(`data: ${body}\n\n`);
      return;
    }
    sendJson(this.res, status, { ...this.headers, ...extraHeaders }, body);
  }

  /** Ends the answer without a response (the request was cancelled). */
  abandon(): void {
    this.stopKeepalive();
    if (!this.res.writableEnded) this.res.end();
  }

  private stopKeepalive(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = undefined;
  }
}

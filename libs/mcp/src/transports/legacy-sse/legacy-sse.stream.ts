import type { ServerResponse } from 'node:http';
import { JsonRpcMessage } from '../../wire/json-rpc';
import { MessageSink } from '../../wire/message-sink';

const KEEPALIVE_MS = 25_000;

/**
 * The one SSE stream of a legacy HTTP+SSE session (2024-11-05): an `endpoint` event first, then
 * every server message as an `event: message`. Nothing is stored for resumption: the protocol has
 * none, and the session ends with the connection.
 * @internal
 */
export class LegacySseStream implements MessageSink {
  private res: ServerResponse | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private ended = false;

  /** `onDisconnect` runs once when the client goes away (not when the server ends the stream). */
  constructor(private readonly onDisconnect: () => void) {}

  /** Starts the stream on `res` and announces where to POST messages. */
  open(res: ServerResponse, endpoint: string): void {
    this.res = res;
    // A broken connection must never become an unhandled 'error' event (that would end the process).
    res.on('error', () => undefined);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(sseEvent('endpoint', endpoint));
    this.keepalive = setInterval(() => this.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => {
      if (this.ended) return;
      this.stop();
      this.onDisconnect();
    });
  }

  send(message: JsonRpcMessage): boolean {
    return this.sendSerialised(JSON.stringify(message));
  }

  /** Sends a message that is already JSON text (a dispatch outcome). */
  sendSerialised(json: string): boolean {
    if (!this.connected) return false;
    this.write(sseEvent('message', json));
    return true;
  }

  /** True while the client is connected; a connected session is busy and never idles out. */
  get connected(): boolean {
    return this.res !== undefined && !this.ended && writable(this.res);
  }

  /** Ends the stream from the server side (the session was closed). */
  end(): void {
    const res = this.res;
    this.stop();
    if (res && writable(res)) res.end();
  }

  private stop(): void {
    this.ended = true;
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = undefined;
    this.res = undefined;
  }

  private write(chunk: string): void {
    if (this.res && writable(this.res)) this.res.write(chunk);
  }
}

const writable = (res: ServerResponse) => !res.writableEnded && !res.destroyed;

/** One SSE event; a line break in `data` (never in compact JSON, but safe) becomes another data line. @internal */
export const sseEvent = (event: string, data: string) =>
  `event: ${event}\ndata: ${data.replace(/\r\n|\r|\n/g, '\ndata: ')}\n\n`;

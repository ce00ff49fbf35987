import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Why a connection was refused: the process is at its total, or the source at its own share. */
export type ConnectionRefusal = 'total' | 'per_source';

/** Bounds of {@link ConnectionLimiter}; `perSource` 0 switches the per-source bound off. @internal */
export interface ConnectionBounds {
  max: number;
  perSource: number;
}

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32006,
    message: 'Server busy: too many open connections; retry later',
    data: { reason: 'connection_limit' },
  },
});
/** A whole HTTP answer written on the raw socket: the connection never reaches the HTTP parser's handlers. */
const REFUSAL =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/**
 * Caps the connections an HTTP server holds, in total and per source address, below the process's file-descriptor
 * limit: an attacker holding thousands of idle sockets is refused at accept time, before any request is parsed,
 * instead of taking every descriptor (the process then stops answering anyone, `/health` included). A refused
 * connection gets a short 503 answer and is closed at once.
 *
 * Per source means per peer address of the socket: behind a reverse proxy every connection comes from the proxy,
 * so there the bound is the proxy's connection budget (or 0, off).
 * @internal
 */
export class ConnectionLimiter {
  private total = 0;
  private readonly bySource = new Map<string, number>();

  constructor(
    private readonly bounds: ConnectionBounds,
    private readonly onRefuse: (source: string, reason: ConnectionRefusal) => void,
  ) {}

  /** Connections held now. */
  get open(): number {
    return this.total;
  }

  /** Starts counting on `server`; ahead of Node's own listener, so a refused socket never gets a parser. */
  attach(server: Server): void {
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    const source = socket.remoteAddress ?? 'unknown';
    const held = this.bySource.get(source) ?? 0;
    const reason: ConnectionRefusal | undefined =
      this.total >= this.bounds.max
        ? 'total'
        : this.bounds.perSource > 0 && held >= this.bounds.perSource
          ? 'per_source'
          : undefined;
    if (reason) {
      socket.on('error', () => undefined);
      // Written before the peer has sent anything, so the kernel delivers it before the close.
      socket.write(REFUSAL);
      socket.destroy();
      this.onRefuse(source, reason);
      return;
    }
    this.total++;
    this.bySource.set(source, held + 1);
    socket.once('close', () => {
      this.total--;
      const left = (this.bySource.get(source) ?? 1) - 1;
      if (left > 0) this.bySource.set(source, left);
      else this.bySource.delete(source);
    });
  }
}

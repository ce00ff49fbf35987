import { Agent, request } from 'node:http';

/** An HTTP answer, read whole. */
export interface FuzzAnswer {
  status: number;
  /** The Content-Type header, or null. */
  type: string | null;
  /** The body decoded as UTF-8. */
  text: string;
}

/**
 * POSTs fuzzed bodies to one server over node:http with kept-alive connections. Global fetch costs several times the
 * CPU per request inside jest (a Request, a Response and web streams for each of 10,000 bodies), more than the server
 * spends answering; the fuzz needs only the status, the content type and the body text.
 */
export class FuzzHttpClient {
  private readonly agent = new Agent({ keepAlive: true });

  constructor(private readonly url: string) {}

  /**
   * One POST of `body` (sent with its Content-Length); rejects when no whole answer comes within `timeoutMs`. A kept
   * connection the server closed as this request went out on it (its idle close racing our reuse: the server never
   * read the request) is retried once on a new connection, as Node's documentation advises for `reusedSocket`.
   */
  async post(body: Buffer | string, headers: Record<string, string>, timeoutMs = 15_000): Promise<FuzzAnswer> {
    try {
      return await this.send(body, headers, timeoutMs);
    } catch (e) {
      if (!(e as { reused?: boolean }).reused) throw e;
      return this.send(body, headers, timeoutMs);
    }
  }

  private send(body: Buffer | string, headers: Record<string, string>, timeoutMs: number): Promise<FuzzAnswer> {
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              type: res.headers['content-type'] ?? null,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && e.code === 'ECONNRESET' ? Object.assign(e, { reused: true }) : e),
      );
      req.end(body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

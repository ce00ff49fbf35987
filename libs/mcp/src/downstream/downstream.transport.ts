import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

/** One HTTP answer, its body read in full (within the bound). @internal */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The body was larger than `maxResponseBytes`: the request fails rather than the process holding it. @internal */
export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response exceeded ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * The HTTP side of one downstream: an undici connection pool to its origin (as many connections as requests may run
 * at once), each request aborted by its signal and its body read up to a bound.
 * @internal
 */
export class DownstreamTransport {
  private readonly pool: Pool;

  constructor(
    origin: string,
    connections: number,
    private readonly maxResponseBytes: number,
  ) {
    this.pool = new Pool(origin, { connections });
  }

  /** Sends one request; rejects when there is no answer (connection refused or reset, aborted). */
  async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal,
  ): Promise<RawAnswer> {
    const res = await this.pool.request({ method, path, headers, body, signal });
    const declared = Number(res.headers['content-length']);
    if (declared > this.maxResponseBytes) {
      res.body.destroy();
      throw new ResponseTooLargeError(this.maxResponseBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.maxResponseBytes) {
        res.body.destroy();
        throw new ResponseTooLargeError(this.maxResponseBytes);
      }
      chunks.push(chunk);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, size) };
  }

  /** Closes the pool's connections (at shutdown), waiting for requests in flight. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

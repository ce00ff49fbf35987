import { connect } from 'node:net';

/** An HTTP answer as read off the socket: status, headers (lower-case names) and the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Writes one HTTP/1.1 request byte for byte on a fresh TCP connection to `url`'s server (`Connection: close`) and reads
 * the answer until the server closes it. For what an HTTP client would not send as given: a request target in absolute
 * form naming another host, a `Host` value that is not a host[:port], a path with percent-escapes kept as typed.
 */
export function rawExchange(
  url: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body = '',
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
  const head = `${method} ${target} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a client that half-closes its side gets no answer from Node's server once the request waits
    // on anything (a first token's key set, say). The server closes after its answer (`Connection: close`).
    const socket = connect(Number(port), hostname, () => socket.write(head + body));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

function parseAnswer(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP answer: ${JSON.stringify(raw.toString('latin1', 0, 200))}`);
  const [statusLine, ...headerLines] = raw.toString('latin1', 0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(end + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest;
  return { status, headers, text: body.toString('utf8') };
}

/** The body of a chunked answer (sizes in hex, each chunk followed by CRLF, a zero-size chunk last). */
function unchunk(rest: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n', at);
    const size = parseInt(rest.toString('latin1', at, lineEnd), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

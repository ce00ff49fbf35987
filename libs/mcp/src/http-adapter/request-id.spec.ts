import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceRequestId, requestIdFor, responseHeader, responseRequestId } from './request-id';

/** A real Node server whose responses announce their id at the head, then answer as `answer` does. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<[Server, string]> {
  const server = createServer((req, res) => {
    announceRequestId(res, requestIdFor(req));
    answer(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return [server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`];
}

describe('request id', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((ok) => (server ? server.close(() => ok()) : ok())));

  // Each way a head gets written, and the other headers it must still carry.
  const cases: [string, (res: ServerResponse) => void, Record<string, string | null>][] = [
    [
      'writeHead with an object',
      (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'),
      { 'content-type': 'text/plain' },
    ],
    [
      'writeHead with a reason phrase',
      (res) => res.writeHead(200, 'Fine', { 'Content-Type': 'text/plain' }).end(),
      { 'content-type': 'text/plain' },
    ],
    [
      'writeHead with a list',
      (res) => res.writeHead(200, ['Content-Type', 'text/plain']).end(),
      { 'content-type': 'text/plain' },
    ],
    ['end() alone', (res) => res.end('ok'), { 'content-type': null }],
    [
      'a header set before the head',
      (res) => {
        res.setHeader('Content-Type', 'text/plain');
        res.writeHead(200, { 'X-Other': '1' }).end();
      },
      { 'content-type': 'text/plain', 'x-other': '1' },
    ],
  ];
  it.each(cases)('every answer carries X-Request-Id, once: %s', async (_, answer, others) => {
    let seen: string | undefined;
    let url: string;
    [server, url] = await serve((_req, res) => {
      seen = responseRequestId(res);
      answer(res);
    });
    const given = await fetch(url, { headers: { 'x-request-id': 'given-0001' } });
    expect(given.headers.get('x-request-id')).toBe('given-0001');
    expect(seen).toBe('given-0001');
    for (const [name, value] of Object.entries(others)) expect(given.headers.get(name)).toBe(value);
    const fresh = await fetch(url);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps an id the answer sets itself, and Node's own head otherwise untouched", async () => {
    let url: string;
    [server, url] = await serve((_req, res) => res.writeHead(201, { 'x-request-id': 'own' }).end());
    const r = await fetch(url, { headers: { 'x-request-id': 'given-0002' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-request-id')).toBe('own');
  });

  it('gives the headers written with the head, which Node does not keep', async () => {
    let retry: unknown;
    let url: string;
    [server, url] = await serve((_req, res) => {
      res.writeHead(503, { 'Retry-After': '2', 'Content-Type': 'application/json' }).end('{}');
      retry = [res.getHeader('Retry-After'), responseHeader(res, 'retry-after'), responseHeader(res, 'X-Absent')];
    });
    await fetch(url);
    expect(retry).toEqual([undefined, '2', undefined]);
  });

  it('replaces an unsafe id with a fresh one', async () => {
    let url: string;
    [server, url] = await serve((_req, res) => res.end());
    const r = await fetch(url, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

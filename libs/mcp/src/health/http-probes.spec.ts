import { Test } from '@nestjs/testing';
import { createServer, RequestListener, Server } from 'node:http';
import { probeIntrospection, probeJwks } from './http-probes';
import { describeFailure, redact } from '../errors/redact';

const servers: Server[] = [];
async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
const json =
  (status: number, body: string): RequestListener =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
const signal = () => AbortSignal.timeout(2_000);

beforeAll(() => Test.createTestingModule({}).compile());
afterAll(() => Promise.all(servers.map((s) => new Promise((ok) => s.close(ok)))));

describe('probeJwks', () => {
  it('is up for a JSON object with keys', async () => {
    await expect(
      probeJwks(`${await serve(json(200, '{"keys":[{"kid":"a"}]}'))}/jwks`, signal()),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['an error status', json(503, '{"keys":[{"kid":"a"}]}'), /answered HTTP 503/],
    ['no keys', json(200, '{"keys":[]}'), /non-empty "keys"/],
    ['not JSON', json(200, '<html>'), /non-empty "keys"/],
  ])('is down for %s', async (_name, handler, reason) => {
    await expect(probeJwks(`${await serve(handler)}/jwks`, signal())).rejects.toThrow(reason);
  });

  it('is down when nothing listens, with the network code in the reason', async () => {
    const url = await serve(json(200, '{}'));
    await new Promise((ok) => servers.pop()!.close(ok));
    await expect(probeJwks(`${url}/jwks?token=t`, signal())).rejects.toThrow(
      /^GET http:\/\/127\.0\.0\.1:\d+\/jwks failed: fetch failed \(ECONNREFUSED\)$/,
    );
  });

  it('keeps credentials and query strings of the URL out of the reason', async () => {
    const url = (await serve(json(200, '{}'))).replace('http://', 'http://svc:pw@');
    const failure = await probeJwks(`${url}/jwks?token=t`, signal()).catch((e: Error) => e.message);
    expect(failure).toMatch(/^GET http:\/\/\*\*\*@127\.0\.0\.1:\d+\/jwks failed: /);
    expect(failure).not.toMatch(/pw|token=/);
  });
});

describe('probeIntrospection', () => {
  it('is up on any answer below 500, and sends neither credentials nor token', async () => {
    let seen: { auth?: string; body: string } | undefined;
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => ((seen = { auth: req.headers.authorization, body }), res.writeHead(401).end()));
    });
    await expect(probeIntrospection(`${url}/introspect`, signal())).resolves.toBeUndefined();
    expect(seen).toEqual({ auth: undefined, body: '' });
  });

  it('is down on a 5xx', async () => {
    await expect(
      probeIntrospection(`${await serve((_q, r) => r.writeHead(502).end())}/introspect`, signal()),
    ).rejects.toThrow(/answered HTTP 502/);
  });
});

describe('redact and describeFailure', () => {
  it('cuts user info and query strings out of URLs', () => {
    expect(redact('see postgres://admin:hunter2@db:5432/app?sslmode=require and https://x.example/a?token=abc#f')).toBe(
      'see postgres://***@db:5432/app and https://x.example/a',
    );
  });

  it('says "timed out" for aborts and keeps the network code', () => {
    expect(describeFailure(new DOMException('x', 'TimeoutError'))).toBe('timed out');
    expect(describeFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }))).toBe(
      'fetch failed (ENOTFOUND)',
    );
  });
});

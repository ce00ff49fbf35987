import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { RunGuard } from '../run-guard';
import { AuthProxy } from './auth-proxy';

/** An upstream that records what reaches it (path and Authorization) and answers with `answer`. */
async function upstream(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { path?: string; authorization?: string }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization });
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((ok) => server.close(() => ok()));
  };
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), seen, close };
}

const ok = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200).end('{"ok":true}');

describe('AuthProxy (the conformance step’s loopback proxy)', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  it('adds the token to the suite’s requests only: without the per-run secret, 404 and nothing goes upstream', async () => {
    const up = await upstream(ok);
    const proxy = await AuthProxy.start(up.url, 'user-token');
    closing.push(up.close, () => proxy.close());
    const base = new URL(proxy.url);
    const secret = base.pathname.split('/')[1];
    expect(secret).toMatch(/^[\w-]{43}$/);
    const guessed = `${'A'.repeat(secret.length)}`;
    const refused = await Promise.all(
      ['/mcp', '/', `/${guessed}/mcp`, `/${secret.slice(0, -1)}/mcp`, `/${secret}x/mcp`].map((path) =>
        fetch(new URL(path, base), { method: 'POST', body: '{}' }),
      ),
    );
    expect(refused.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(up.seen).toEqual([]);
    const served = await fetch(proxy.url, { method: 'POST', body: '{}' });
    expect(served.status).toBe(200);
    expect(up.seen).toEqual([{ path: '/mcp', authorization: 'Bearer user-token' }]);
  });

  it('passes no redirect on (the suite would follow it elsewhere): 502, and the run notes it', async () => {
    const up = await upstream((_req, res) => res.writeHead(307, { location: 'http://other.invalid/mcp' }).end());
    const guard = new RunGuard(0);
    const proxy = await AuthProxy.start(up.url, 'user-token', guard);
    closing.push(up.close, () => proxy.close());
    const answer = await fetch(proxy.url, { method: 'POST', body: '{}', redirect: 'manual' });
    expect(answer.status).toBe(502);
    expect(guard.refusedRedirects).toEqual(["the conformance suite's POST /mcp -> http://other.invalid/mcp"]);
  });

  it('cuts an answer past the cap and stops the run', async () => {
    const big = Buffer.alloc(64 * 1_024, 'x');
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    const guard = new RunGuard(0, 1_024);
    const proxy = await AuthProxy.start(up.url, undefined, guard);
    closing.push(up.close, () => proxy.close());
    const read = await fetch(proxy.url, { method: 'POST', body: '{}' }).then(
      (r) => r.arrayBuffer().then((b) => b.byteLength),
      () => -1,
    );
    expect(read).toBeLessThan(big.length);
    expect(guard.stopped?.reason).toBe('answer-too-large');
    // Nothing more is served once the run stopped.
    expect((await fetch(proxy.url, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});

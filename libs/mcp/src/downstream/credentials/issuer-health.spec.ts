import { once } from 'node:events';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { DownstreamCredentialsError } from './downstream-credentials.error';
import { IssuerHealth } from './issuer-health';

const unavailable = new DownstreamCredentialsError('issuer_unavailable', 'jira', 'the token issuer is unavailable');
const refused = new DownstreamCredentialsError('exchange_refused', 'jira', 'the issuer refused the token request');
const signal = () => AbortSignal.timeout(2_000);

describe('IssuerHealth (what a downstream readiness check knows of its token issuer)', () => {
  let server: Server;
  let issuer: string;
  let discovery: number;
  let asked: string[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url!);
      res.writeHead(discovery, { 'content-type': 'application/json' }).end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/main`;
  });
  beforeEach(() => {
    asked = [];
    discovery = 200;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('is reachable without asking anything until a token request fails for want of the issuer', async () => {
    const health = new IssuerHealth(issuer, 'client_credentials', undefined);
    expect(await health.reachable(signal())).toBe(true);
    health.failed(refused); // the issuer answered: up
    expect(await health.reachable(signal())).toBe(true);
    expect(asked).toEqual([]);
  });

  it('once unreachable with no usable token, asks the discovery document: down until it answers 2xx', async () => {
    const health = new IssuerHealth(issuer, 'token_exchange', undefined);
    health.failed(unavailable);
    discovery = 503;
    expect(await health.reachable(signal())).toBe(false);
    expect(asked).toEqual(['/realms/main/.well-known/openid-configuration']);
    discovery = 200;
    expect(await health.reachable(signal())).toBe(true);
    // Back up: the next probe asks nothing.
    expect(await health.reachable(signal())).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('an issuer that does not answer at all is down', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const health = new IssuerHealth(`http://127.0.0.1:${port}/`, 'client_credentials', undefined);
    health.failed(unavailable);
    expect(await health.reachable(signal())).toBe(false);
  });

  it('a token still usable, or one handed out from the cache, keeps it up', async () => {
    const health = new IssuerHealth(issuer, 'client_credentials', undefined);
    health.obtained(Date.now() + 60_000);
    health.failed(unavailable);
    discovery = 503;
    expect(await health.reachable(signal())).toBe(true);
    const other = new IssuerHealth(issuer, 'client_credentials', undefined);
    other.failed(unavailable);
    other.served();
    expect(await other.reachable(signal())).toBe(true);
    expect(asked).toEqual([]);
  });

  it('tells its listener of every token request, with the grant and outcome', () => {
    const listener = jest.fn();
    const health = new IssuerHealth(issuer, 'token_exchange', listener);
    health.obtained(Date.now());
    health.failed(unavailable);
    health.served(); // a cache hit is no acquisition
    expect(listener.mock.calls).toEqual([
      ['token_exchange', 'ok'],
      ['token_exchange', 'failed'],
    ]);
  });
});

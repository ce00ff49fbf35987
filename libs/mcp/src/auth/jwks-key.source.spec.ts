import { Logger } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { JwksKeySource, KeySourceUnavailableError, UnknownKeyError } from './jwks-key.source';

/** How the loopback JWKS answers: the key set, 503, headers then silence, or a body that is no key set. */
type Mode = 'ok' | 'down' | 'stall' | 'not-a-jwks' | 'empty' | 'huge';

const TTL = 60_000;
const INTERVAL = 10_000;
const BACKOFF = 2_000;

describe('JwksKeySource (the refetch policy, against a loopback JWKS)', () => {
  let server: Server;
  let uri: string;
  let mode: Mode;
  let fetches: number;
  let published: JWK[];
  let clock: number;
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;

  const newJwk = async (kid: string): Promise<JWK> => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    return { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  };
  const source = (timeoutMs = 2_000) =>
    new JwksKeySource(uri, { ttlMs: TTL, refetchIntervalMs: INTERVAL, retryAfterFailureMs: BACKOFF, timeoutMs });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: Error) => e,
    );

  beforeAll(async () => {
    server = createServer((req, res) => {
      fetches++;
      if (mode === 'down') return void res.writeHead(503).end('maintenance');
      if (mode === 'stall') return void res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"keys":[');
      if (mode === 'not-a-jwks') return void res.writeHead(200).end('{"error":"gateway"}');
      if (mode === 'huge') return void res.writeHead(200).end(`{"keys":[],"pad":"${'x'.repeat(600_000)}"}`);
      res.writeHead(200).end(JSON.stringify({ keys: mode === 'empty' ? [] : published }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    uri = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  });
  beforeEach(async () => {
    mode = 'ok';
    fetches = 0;
    published = [await newJwk('k1')];
    clock = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('fetches once, then answers known kids from the cache for the TTL', async () => {
    const keys = source();
    expect(await keys.keyFor('k1')).toMatch(/BEGIN PUBLIC KEY/);
    clock += TTL - 1;
    await keys.keyFor('k1');
    expect(fetches).toBe(1);
  });

  it('spends one fetch per interval on unknown kids however many arrive, concurrent ones sharing it', async () => {
    const keys = source();
    const burst = await Promise.all(Array.from({ length: 500 }, (_, i) => failure(keys.keyFor(`random-${i}`))));
    expect(burst.every((e) => e instanceof UnknownKeyError)).toBe(true);
    expect(fetches).toBe(1);
    for (let i = 0; i < 50; i++) {
      clock += (INTERVAL - 1) / 50;
      expect(await failure(keys.keyFor(`later-${i}`))).toBeInstanceOf(UnknownKeyError);
    }
    expect(fetches).toBe(1);
    expect(await keys.keyFor('k1')).toBeDefined(); // known keys are unaffected
  });

  it('finds a rotated key at the first lookup once the interval has passed, even behind a flood of strangers', async () => {
    const keys = source();
    await keys.keyFor('k1');
    published.push(await newJwk('k2'));
    await Promise.all(Array.from({ length: 100 }, (_, i) => failure(keys.keyFor(`random-${i}`))));
    expect(await failure(keys.keyFor('k2'))).toBeInstanceOf(UnknownKeyError);
    clock += INTERVAL;
    // A stranger's unknown kid takes this interval's refetch; it brings k2 in all the same.
    await failure(keys.keyFor('random-x'));
    expect(await keys.keyFor('k2')).toMatch(/BEGIN PUBLIC KEY/);
    expect(fetches).toBe(2);
  });

  it('when the JWKS is down: unavailable (not unknown), retried after the short backoff only, recovered after it', async () => {
    const keys = source();
    await keys.keyFor('k1');
    mode = 'down';
    published.push(await newJwk('k2'));
    clock += INTERVAL;
    expect(await failure(keys.keyFor('k2'))).toBeInstanceOf(KeySourceUnavailableError);
    for (let i = 0; i < 20; i++)
      expect(await failure(keys.keyFor(`k${i + 2}`))).toBeInstanceOf(KeySourceUnavailableError);
    expect(fetches).toBe(2);
    expect(await keys.keyFor('k1')).toBeDefined(); // a cached key still verifies during the outage
    clock += BACKOFF;
    expect(await failure(keys.keyFor('k2'))).toBeInstanceOf(KeySourceUnavailableError);
    expect(fetches).toBe(3);
    expect(warn).toHaveBeenCalledTimes(1); // the outage is logged once, not per retry
    expect(String(warn.mock.calls[0][0])).toMatch(/JWKS fetch failed: the JWKS answered HTTP 503/);
    mode = 'ok';
    clock += BACKOFF;
    expect(await keys.keyFor('k2')).toMatch(/BEGIN PUBLIC KEY/);
    expect(log).toHaveBeenCalledWith('JWKS fetched again');
  });

  it('keeps a known key past its TTL while the refresh fails, for one more TTL at most', async () => {
    const keys = source();
    await keys.keyFor('k1');
    mode = 'down';
    clock += TTL;
    expect(await keys.keyFor('k1')).toBeDefined(); // served at once, refreshed behind it
    await new Promise((r) => setTimeout(r, 50));
    expect(fetches).toBe(2);
    clock += TTL;
    expect(await failure(keys.keyFor('k1'))).toBeInstanceOf(KeySourceUnavailableError);
  });

  it('drops a key the issuer removed once the refresh after the TTL lands (rotation out)', async () => {
    const keys = source();
    await keys.keyFor('k1');
    published = [await newJwk('k2')];
    clock += TTL;
    await keys.keyFor('k1');
    await new Promise((r) => setTimeout(r, 50));
    expect(await failure(keys.keyFor('k1'))).toBeInstanceOf(UnknownKeyError);
    expect(await keys.keyFor('k2')).toBeDefined();
  });

  it('gives up on a JWKS that stalls after its headers within the deadline, and is not stuck afterwards', async () => {
    const keys = source(300);
    mode = 'stall';
    const started = performance.now();
    expect(await failure(keys.keyFor('k1'))).toBeInstanceOf(KeySourceUnavailableError);
    expect(performance.now() - started).toBeLessThan(1_500);
    mode = 'ok';
    clock += BACKOFF;
    expect(await keys.keyFor('k1')).toBeDefined();
  });

  it.each<[Mode, string]>([
    ['not-a-jwks', 'an answer without a "keys" array'],
    ['huge', 'an answer over the size cap'],
  ])('takes %s as an outage (%s)', async (m) => {
    mode = m;
    expect(await failure(source().keyFor('k1'))).toBeInstanceOf(KeySourceUnavailableError);
  });

  it('takes an empty key set as the issuer answer (unknown kid), and a closed port as an outage', async () => {
    mode = 'empty';
    expect(await failure(source().keyFor('k1'))).toBeInstanceOf(UnknownKeyError);
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as { port: number }).port;
    await new Promise((ok) => closed.close(ok));
    const refused = new JwksKeySource(`http://127.0.0.1:${port}/jwks.json`, {
      ttlMs: TTL,
      refetchIntervalMs: INTERVAL,
      retryAfterFailureMs: BACKOFF,
      timeoutMs: 1_000,
    });
    expect(await failure(refused.keyFor('k1'))).toBeInstanceOf(KeySourceUnavailableError);
    expect(String(warn.mock.calls[0][0])).toMatch(/ECONNREFUSED/);
  });
});

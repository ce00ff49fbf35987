import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ProbeFailure } from './http-probes';
import { ProbeRunner } from './probe-runner';

describe('ProbeRunner', () => {
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;
  beforeEach(async () => {
    // Created in a testing module like the rest of the folder's specs, even though the runner is plain.
    await Test.createTestingModule({}).compile();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('shares one run between concurrent callers and reuses the answer for cacheMs', async () => {
    const runner = new ProbeRunner(60_000, 1_000);
    let calls = 0;
    const probe = async () => (calls++, 'up' as const);
    expect(await Promise.all([runner.run('db', probe), runner.run('db', probe)])).toEqual(['up', 'up']);
    expect(await runner.run('db', probe)).toBe('up');
    expect(calls).toBe(1);
  });

  it('probes again once the cache expired (cacheMs 0: every time)', async () => {
    const runner = new ProbeRunner(0, 1_000);
    let calls = 0;
    const probe = async () => (calls++, 'up' as const);
    await runner.run('db', probe);
    await runner.run('db', probe);
    expect(calls).toBe(2);
  });

  it('counts a throw as down and logs the redacted reason once, then the recovery', async () => {
    const runner = new ProbeRunner(0, 1_000);
    const failing = async (): Promise<'up'> => {
      throw new ProbeFailure('GET https://svc:s3cret@idp.example/jwks?key=abc failed');
    };
    expect(await runner.run('jwks', failing)).toBe('down');
    expect(await runner.run('jwks', failing)).toBe('down');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe('readiness check "jwks" is down: GET https://***@idp.example/jwks failed');
    expect(await runner.run('jwks', async () => 'up')).toBe('up');
    expect(log).toHaveBeenCalledWith('readiness check "jwks" is ok again');
  });

  it('counts a probe slower than timeoutMs as down and aborts its signal', async () => {
    const runner = new ProbeRunner(0, 50);
    let signal: AbortSignal | undefined;
    const started = Date.now();
    const status = await runner.run('slow', (s) => ((signal = s), new Promise(() => undefined)));
    expect(status).toBe('down');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(signal?.aborted).toBe(true);
    expect(warn.mock.calls[0][0]).toBe('readiness check "slow" is down: timed out after 50 ms');
  });

  it('passes degraded through', async () => {
    expect(await new ProbeRunner(0, 1_000).run('q', async () => 'degraded')).toBe('degraded');
  });
});

import { DownstreamCredentialsError } from './downstream-credentials.error';
import { IssuerHealth } from './issuer-health';

const unavailable = new DownstreamCredentialsError('issuer_unavailable', 'jira', 'the token issuer is unavailable');
const refused = new DownstreamCredentialsError('exchange_refused', 'jira', 'the issuer refused the token request');
const signal = new AbortController().signal;

describe('IssuerHealth (what a downstream readiness check knows of its token issuer)', () => {
  let answers: boolean | Error;
  const probe = jest.fn((s: AbortSignal) => {
    expect(s).toBe(signal);
    return answers instanceof Error ? Promise.reject(answers) : Promise.resolve(answers);
  });
  beforeEach(() => {
    probe.mockClear();
    answers = true;
  });

  it('is reachable without asking anything until a token request fails for want of the issuer', async () => {
    const health = new IssuerHealth(probe, 'client_credentials', undefined);
    expect(await health.reachable(signal)).toBe(true);
    health.failed(refused); // the issuer answered: up
    expect(await health.reachable(signal)).toBe(true);
    expect(probe).not.toHaveBeenCalled();
  });

  it('once unreachable with no usable token, asks the issuer: down until it answers', async () => {
    const health = new IssuerHealth(probe, 'token_exchange', undefined);
    health.failed(unavailable);
    answers = false;
    expect(await health.reachable(signal)).toBe(false);
    answers = new Error('ECONNREFUSED');
    expect(await health.reachable(signal)).toBe(false);
    answers = true;
    expect(await health.reachable(signal)).toBe(true);
    // Back up: the next probe asks nothing.
    expect(await health.reachable(signal)).toBe(true);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('a token still usable, or one handed out from the cache, keeps it up', async () => {
    const health = new IssuerHealth(probe, 'client_credentials', undefined);
    health.obtained(Date.now() + 60_000);
    health.failed(unavailable);
    answers = false;
    expect(await health.reachable(signal)).toBe(true);
    const other = new IssuerHealth(probe, 'client_credentials', undefined);
    other.failed(unavailable);
    other.served();
    expect(await other.reachable(signal)).toBe(true);
    expect(probe).not.toHaveBeenCalled();
  });

  it('tells its listener of every token request, with the grant and outcome', () => {
    const listener = jest.fn();
    const health = new IssuerHealth(probe, 'token_exchange', listener);
    health.obtained(Date.now());
    health.failed(unavailable);
    health.served(); // a cache hit is no acquisition
    expect(listener.mock.calls).toEqual([
      ['token_exchange', 'ok'],
      ['token_exchange', 'failed'],
    ]);
  });
});

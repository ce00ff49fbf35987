import { Registry } from 'prom-client';
import { DownstreamMeter, statusClass } from './downstream.metrics';

/** The value of one series in the registry's text exposition, or undefined when it is absent. */
const series = async (registry: Registry, line: string): Promise<number | undefined> => {
  const text = await registry.metrics();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('DownstreamMeter', () => {
  it('classes statuses: 2xx to 5xx, and none without an answer', () => {
    expect([200, 204, 301, 404, 429, 503, 599, undefined].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
      'none',
    ]);
  });

  it('counts attempts by status class, their durations, retries and token acquisitions per downstream', async () => {
    const registry = new Registry();
    const jira = new DownstreamMeter('jira', registry);
    const gitlab = new DownstreamMeter('gitlab', registry); // a second downstream on the same registry
    jira.attempt(200, 0.02);
    jira.attempt(503, 0.1);
    jira.attempt(undefined, 3);
    jira.retried();
    jira.retried();
    gitlab.attempt(404, 0.01);
    jira.tokenAcquired('client_credentials', 'ok');
    jira.tokenAcquired('client_credentials', 'failed');
    jira.tokenAcquired('client_credentials', 'failed');
    const r = (l: string) => series(registry, l);
    expect(await r('mcp_downstream_requests_total{downstream="jira",status_class="2xx"}')).toBe(1);
    expect(await r('mcp_downstream_requests_total{downstream="jira",status_class="5xx"}')).toBe(1);
    expect(await r('mcp_downstream_requests_total{downstream="jira",status_class="none"}')).toBe(1);
    expect(await r('mcp_downstream_requests_total{downstream="jira",status_class="4xx"}')).toBe(0);
    expect(await r('mcp_downstream_requests_total{downstream="gitlab",status_class="4xx"}')).toBe(1);
    expect(await r('mcp_downstream_request_duration_seconds_count{downstream="jira"}')).toBe(3);
    expect(await r('mcp_downstream_request_duration_seconds_bucket{le="0.05",downstream="jira"}')).toBe(1);
    expect(await r('mcp_downstream_retries_total{downstream="jira"}')).toBe(2);
    expect(await r('mcp_downstream_retries_total{downstream="gitlab"}')).toBe(0);
    expect(
      await r('mcp_downstream_token_acquisitions_total{downstream="jira",grant="client_credentials",outcome="failed"}'),
    ).toBe(2);
    expect(
      await r('mcp_downstream_token_acquisitions_total{downstream="jira",grant="client_credentials",outcome="ok"}'),
    ).toBe(1);
  });

  it('reads each breaker at scrape time: 0 closed, 1 half-open, 2 open', async () => {
    const registry = new Registry();
    let state: 'closed' | 'half-open' | 'open' = 'closed';
    new DownstreamMeter('jira', registry).watchBreaker(() => state);
    const gauge = () => series(registry, 'mcp_downstream_breaker_state{downstream="jira"}');
    expect(await gauge()).toBe(0);
    state = 'open';
    expect(await gauge()).toBe(2);
    state = 'half-open';
    expect(await gauge()).toBe(1);
  });

  it('does nothing without a registry (a downstream module without McpModule)', () => {
    const meter = new DownstreamMeter('jira', undefined);
    expect(() => {
      meter.attempt(200, 0.1);
      meter.retried();
      meter.watchBreaker(() => 'open');
      meter.tokenAcquired('token_exchange', 'ok');
    }).not.toThrow();
  });
});

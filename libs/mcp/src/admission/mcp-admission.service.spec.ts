import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemoryLimitStore } from '../stores/in-memory-limit.store';
import { McpLimitStore } from '../stores/limit.store';
import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { AdmissionRefusal, McpAdmissionRefusals } from './admission-refusals';
import { McpAdmission } from './mcp-admission.service';
import { RequestBudget } from './request-budget';
import { SessionBudget } from './session-budget';
import { StreamLimiter } from './stream-limiter';

const options = resolveMcpOptions({
  name: 'svc',
  version: '1.0.0',
  limits: { callsPerMinute: 2, maxConcurrentCalls: 1, requestsPerMinute: 1, maxBatchSize: 3 },
});
const alice = {
  principal: { subject: 'alice', scopes: new Set<string>(), claims: { sub: 'alice' } },
  transport: 'http',
};

function setup(store: McpLimitStore = new InMemoryLimitStore()) {
  const seen: AdmissionRefusal[] = [];
  const refusals: McpAdmissionRefusals = { refused: (r) => void seen.push(r) };
  const admission = new McpAdmission(
    options,
    store,
    new RequestBudget(options, store, refusals),
    new StreamLimiter(options, store, refusals),
    {} as SessionBudget,
    refusals,
  );
  return { admission, seen };
}

describe('McpAdmission', () => {
  it('counts calls per minute, then refuses with -32003 and tells the refusal (target, limit, log reason)', async () => {
    const { admission, seen } = setup();
    const work = () => Promise.resolve('done');
    await admission.call(alice, 'job', undefined, work);
    await admission.call(alice, 'job', undefined, work);
    await expect(admission.call(alice, 'job', undefined, work)).rejects.toMatchObject({ code: ErrorCode.RateLimited });
    expect(seen).toEqual([
      { target: 'job', limit: 'rate', reason: 'rate_limited:rate', subject: 'alice', detail: { target: 'job' } },
    ]);
  });

  it('holds a concurrency slot while the work runs and gives it back after', async () => {
    const { admission, seen } = setup();
    let finish!: () => void;
    const first = admission.call(alice, 'job', undefined, () => new Promise<void>((r) => (finish = r)));
    await new Promise((r) => setImmediate(r));
    await expect(admission.call(alice, 'job', undefined, async () => 'x')).rejects.toThrow('too many calls at once');
    expect(seen.map((r) => r.limit)).toEqual(['concurrency']);
    finish();
    await first;
  });

  it('counts resource URIs under one metric target', async () => {
    const { admission, seen } = setup();
    for (let i = 0; i < 3; i++) await admission.call(alice, `file://x/${i}`, undefined, async () => i).catch(() => 0);
    expect(seen[0]).toMatchObject({ target: 'resources/read', limit: 'rate' });
  });

  it('fails closed: a limits store that cannot be reached refuses with -32006 and retryAfter 2', async () => {
    const down = new Error('ECONNREFUSED');
    const store: McpLimitStore = {
      consume: () => Promise.reject(down),
      acquire: () => Promise.reject(down),
      release: () => Promise.reject(down),
    } as unknown as McpLimitStore;
    const { admission } = setup(store);
    const refused = await admission.call(alice, 'job', undefined, async () => 'x').catch((e: McpError) => e);
    expect(refused).toMatchObject({
      code: ErrorCode.UpstreamUnavailable,
      message: 'Unavailable: the limits store cannot be reached; retry shortly',
      data: { reason: 'limit_store_unavailable', retryAfter: 2 },
    });
    await expect(admission.message('http', alice.principal, 'ping')).resolves.toMatchObject({
      code: ErrorCode.UpstreamUnavailable,
    });
  });

  it('answers a message over the request budget with the -32003 to send, and knows the caller is over', async () => {
    const { admission } = setup();
    await expect(admission.message('http', alice.principal, 'ping')).resolves.toBeUndefined();
    await expect(admission.message('http', alice.principal, 'ping')).resolves.toMatchObject({
      code: ErrorCode.RateLimited,
      message: 'Rate limited: too many requests; retry later',
    });
    expect(admission.unread('http', alice.principal)).toBeGreaterThan(0);
    expect(admission.unread('http', undefined)).toBeUndefined();
  });

  it('refuses a batch past maxBatchSize as a whole', () => {
    const { admission } = setup();
    expect(admission.batch(3)).toBeUndefined();
    expect(admission.batch(4)).toEqual({
      code: ErrorCode.InvalidRequest,
      message: 'Invalid Request: a batch holds at most 3 messages (got 4)',
      data: { reason: 'batch_too_large', max: 3 },
    });
  });
});

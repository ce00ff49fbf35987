import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpSession } from '../sessions/mcp-session';
import { ToolExecutionError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';
import { McpLimits } from '../options/limits-options.interface';
import { McpPrincipal } from '../auth/mcp-principal';
import { InMemoryKeyStore } from '../stores/in-memory-key.store';
import { InMemoryIdempotencyStore } from '../stores/in-memory-idempotency.store';
import { RedisIdempotencyStore } from '../stores/redis-idempotency.store';
import { McpIdempotencyStore } from '../stores/idempotency.store';
import { Invocation, invoke } from './invocation.stage';
import { RequestContext } from './request-context';
import { RequestStateCodec } from './request-state.codec';
import { IdempotencyKeeper } from './idempotency.keeper';

// The machine's Redis for the two-replica case; this run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const states = new RequestStateCodec(new InMemoryKeyStore());
const limiter = { call: <T>(_c: unknown, _t: unknown, _o: unknown, work: () => Promise<T>) => work() };
const principal = (subject: string): McpPrincipal => ({ subject, scopes: new Set(), claims: {} });

/** A replica's keeper over `store`. */
const keeperOn = (store: McpIdempotencyStore, limits: McpLimits = {}) =>
  new IdempotencyKeeper(resolveMcpOptions({ name: 'svc', version: '1.0.0', limits }), store);

function request(keeper: IdempotencyKeeper, caller = 'alice'): RequestContext {
  const controller = new AbortController();
  const session = new McpSession('s1', 'http');
  session.negotiate('2025-11-25', { name: 'c', version: '1' }, {});
  return {
    requestId: 'r1',
    principal: principal(caller),
    abort: (reason) => controller.abort(reason),
    message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create', arguments: {} } },
    peer: session,
    sink: { send: () => true },
    signal: controller.signal,
    options: resolveMcpOptions({ name: 'svc', version: '1.0.0' }),
    admission: limiter,
    states,
    idempotency: keeper,
  };
}

/** A mutating tool keyed by `requestId` that counts its runs. */
function counted(work: (args: Record<string, unknown>) => unknown = (args) => ({ created: args.title })) {
  const tool = {
    runs: 0,
    call: (args: Record<string, unknown>): Invocation => ({
      kind: 'tool',
      target: 'create',
      method: (given) => {
        tool.runs++;
        return work(given);
      },
      args,
      once: { argument: 'requestId', arguments: args },
    }),
  };
  return tool;
}

describe('the invocation stage with an idempotency key (mutation.idempotency.replay)', () => {
  it('runs the first call, answers a repeat with its value marked replayed, and runs the tool once', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    const tool = counted();
    const args = { requestId: 'req-1', title: 'Printer' };
    expect(await invoke(request(keeper), tool.call(args))).toEqual({ value: { created: 'Printer' } });
    // Same arguments in another key order: the same request.
    expect(await invoke(request(keeper), tool.call({ title: 'Printer', requestId: 'req-1' }))).toEqual({
      value: { created: 'Printer' },
      replayed: true,
    });
    expect(tool.runs).toBe(1);
  });

  it('refuses the same key with other arguments (-32602 idempotency_key_reused), running nothing', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    const tool = counted();
    await invoke(request(keeper), tool.call({ requestId: 'req-1', title: 'Printer' }));
    await expect(invoke(request(keeper), tool.call({ requestId: 'req-1', title: 'Scanner' }))).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { field: 'requestId', reason: 'idempotency_key_reused' },
    });
    expect(tool.runs).toBe(1);
  });

  it("keeps keys per caller: another caller's call with the same key runs", async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    const tool = counted();
    const args = { requestId: 'req-1', title: 'Printer' };
    await invoke(request(keeper, 'alice'), tool.call(args));
    expect(await invoke(request(keeper, 'bob'), tool.call(args))).toEqual({ value: { created: 'Printer' } });
    expect(tool.runs).toBe(2);
  });

  it('refuses a duplicate while the first still runs (-32007 idempotency_in_progress), then replays', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    let finish!: () => void;
    let start!: () => void;
    const started = new Promise<void>((ok) => (start = ok));
    const tool = counted(async (args) => {
      start();
      await new Promise<void>((done) => (finish = done));
      return { created: args.title };
    });
    const args = { requestId: 'req-1', title: 'Printer' };
    const first = invoke(request(keeper), tool.call(args));
    await started;
    await expect(invoke(request(keeper), tool.call(args))).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      data: { reason: 'idempotency_in_progress', retryAfter: 1 },
    });
    finish();
    expect(await first).toEqual({ value: { created: 'Printer' } });
    expect(await invoke(request(keeper), tool.call(args))).toMatchObject({ replayed: true });
    expect(tool.runs).toBe(1);
  });

  it('keeps nothing for a failed call: a retry runs the tool again', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    let fail = true;
    const tool = counted((args) => {
      if (fail) throw new ToolExecutionError('the shop is closed; retry later');
      return { created: args.title };
    });
    const args = { requestId: 'req-1', title: 'Printer' };
    expect(await invoke(request(keeper), tool.call(args))).toEqual({ failure: 'the shop is closed; retry later' });
    fail = false;
    expect(await invoke(request(keeper), tool.call(args))).toEqual({ value: { created: 'Printer' } });
    expect(tool.runs).toBe(2);
  });

  it('refuses a repeat whose first answer was too large to keep (-32007), never running it again', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore(), { idempotencyMaxAnswerBytes: 64 });
    const tool = counted(() => ({ report: 'x'.repeat(100) }));
    const args = { requestId: 'req-1' };
    expect(await invoke(request(keeper), tool.call(args))).toEqual({ value: { report: 'x'.repeat(100) } });
    await expect(invoke(request(keeper), tool.call(args))).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      data: { reason: 'idempotency_answer_not_kept' },
    });
    expect(tool.runs).toBe(1);
  });

  it('refuses a caller past its keys (-32003) and the deployment past its keys (-32006), with retryAfter', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore(), { idempotencyKeysPerSubject: 1, idempotencyMaxKeys: 2 });
    const tool = counted();
    await invoke(request(keeper, 'alice'), tool.call({ requestId: 'a-1' }));
    await expect(invoke(request(keeper, 'alice'), tool.call({ requestId: 'a-2' }))).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
      data: { reason: 'too_many_idempotency_keys', retryAfter: expect.any(Number) },
    });
    await invoke(request(keeper, 'bob'), tool.call({ requestId: 'b-1' }));
    await expect(invoke(request(keeper, 'carol'), tool.call({ requestId: 'c-1' }))).rejects.toMatchObject({
      code: ErrorCode.UpstreamUnavailable,
      data: { reason: 'idempotency_capacity', retryAfter: expect.any(Number) },
    });
    expect(tool.runs).toBe(2);
  });

  it('refuses the call (-32006) when the store cannot be reached, running nothing', async () => {
    const down: McpIdempotencyStore = {
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
      keep: () => Promise.reject(new Error('ECONNREFUSED')),
      release: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const tool = counted();
    await expect(invoke(request(keeperOn(down)), tool.call({ requestId: 'req-1' }))).rejects.toMatchObject({
      code: ErrorCode.UpstreamUnavailable,
      data: { reason: 'idempotency_store_unavailable' },
    });
    expect(tool.runs).toBe(0);
  });

  it('leaves calls without a key, and a task run, to run every time', async () => {
    const keeper = keeperOn(new InMemoryIdempotencyStore());
    const tool = counted();
    const plain = { ...tool.call({ requestId: 'req-1' }), once: undefined };
    await invoke(request(keeper), plain);
    await invoke(request(keeper), plain);
    const asTask = { ...request(keeper), task: { id: 't1', questions: undefined as never } };
    await invoke(asTask, tool.call({ requestId: 'req-2' }));
    await invoke(asTask, tool.call({ requestId: 'req-2' }));
    expect(tool.runs).toBe(4);
  });

  it('replays on another replica through Redis (two keepers, two store instances)', async () => {
    const replicaA = keeperOn(new RedisIdempotencyStore(redis, prefix));
    const replicaB = keeperOn(new RedisIdempotencyStore(redis, prefix));
    const tool = counted();
    const args = { requestId: `req-${randomBytes(4).toString('hex')}`, title: 'Printer' };
    expect(await invoke(request(replicaA), tool.call(args))).toEqual({ value: { created: 'Printer' } });
    expect(await invoke(request(replicaB), tool.call(args))).toEqual({ value: { created: 'Printer' }, replayed: true });
    expect(tool.runs).toBe(1);
  });
});

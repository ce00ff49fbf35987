// The abuse scenario, round three (issue #36), on a server with every store in Redis (auth on, default task caps):
//   cancel    one caller's ten tasks that ask a question, cancelled once asking: how soon a bystander's task and the
//             caller's own next task run (before the fix, the cancelled runs kept their places until the 10-minute
//             input timeout, so neither ran)
//   fill      ten callers create tasks with 1 MB arguments until refused: what each kept, why it was refused, and
//             Redis's used_memory growth against the deployment's bound (tasks.maxStoreBytes, 64 MiB) and the
//             shipped maxmemory (200 MiB); a bystander is still served
//   compliance  the compliance command against hostile servers (bench/lib/abuse-compliance.mjs)
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { dropRedisPrefix } from './redis.mjs';
import { startServer } from './servers.mjs';
import { AUTH_AUDIENCE, AUTH_ISSUER } from './settings.mjs';
import { runComplianceAbuse } from './abuse-compliance.mjs';

const EXTENSION = 'io.modelcontextprotocol/tasks';
const CAPS = { elicitation: {}, extensions: { [EXTENSION]: {} } };
const META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"abuse","version":"1"},"io.modelcontextprotocol/clientCapabilities":${JSON.stringify(CAPS)}}`;
/** How long a bystander's task may take to run after the cancellations before the check gives up. */
const FREED_WITHIN_MS = 20_000;
const SHIPPED_MAXMEMORY_MB = 200;
/** Callers filling the task store: ten callers' 8 MiB each is more than the deployment's 64 MiB. */
const FILLERS = 10;
const STORE_BOUND_MB = 64 * 1.048576;
const r1 = (v) => Math.round(v * 10) / 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function usedMemory(redis) {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))[1]);
}

/** Runs round three and returns its block. */
export async function runAbuseRoundThree(issuer) {
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const server = await startServer('mcp-abuse-3', 'mcp', {
    NODE_ENV: 'production',
    BENCH_AUTH: 'on',
    BENCH_TASK_TOOLS: 'on',
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: prefix,
    MCP_RATE_LIMIT_PER_MINUTE: '100000',
    MCP_JWKS_URI: issuer.jwksUri,
    MCP_JWT_ISSUER: AUTH_ISSUER,
    MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
  });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const rpc = async (sub, method, params, name) => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
        authorization: `Bearer ${await issuer.mint(sub)}`,
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{${JSON.stringify(params).slice(1, -1)}${Object.keys(params).length ? ',' : ''}${META}}}`,
    });
    const body = await res.json();
    return { status: res.status, ...body };
  };
  const call = (sub, name, args) => rpc(sub, 'tools/call', { name, arguments: args }, name);
  const get = async (sub, taskId) => (await rpc(sub, 'tasks/get', { taskId }, taskId)).result;
  /** Milliseconds until the task completes, or undefined past FREED_WITHIN_MS. */
  const completedWithin = async (sub, taskId, from) => {
    while (performance.now() - from < FREED_WITHIN_MS) {
      if ((await get(sub, taskId))?.status === 'completed') return Math.round(performance.now() - from);
      await sleep(50);
    }
    return undefined;
  };
  try {
    // --- cancel: ten waiting tasks of one caller -------------------------------------------------------------
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push((await call('asker', 'confirm_task', { text: `change ${i}` })).result.taskId);
    const asking = async () =>
      (await Promise.all(ids.map((id) => get('asker', id)))).filter((t) => t.status === 'input_required').length;
    let waiting = 0;
    for (let i = 0; i < 100 && (waiting = await asking()) < 4; i++) await sleep(50);
    for (const taskId of ids) await rpc('asker', 'tasks/cancel', { taskId }, taskId);
    const cancelledAt = performance.now();
    const theirs = (await call('bystander', 'echo_task', { text: 'hello' })).result.taskId;
    const mine = (await call('asker', 'echo_task', { text: 'hello' })).result.taskId;
    const cancel = {
      tasks: ids.length,
      waitingForAnswers: waiting,
      bystanderRanAfterMs: await completedWithin('bystander', theirs, cancelledAt),
      askerRanAfterMs: await completedWithin('asker', mine, cancelledAt),
    };

    // --- fill: two callers, 1 MB arguments --------------------------------------------------------------------
    const before = await usedMemory(redis);
    const text = 'x'.repeat(1_000_000);
    const fill = { callers: {} };
    for (let n = 1; n <= FILLERS; n++) {
      const sub = `filler-${n}`;
      let kept = 0;
      let refusal;
      for (let i = 0; i < 100 && !refusal; i++) {
        const answer = await call(sub, 'confirm_task', { text });
        if (answer.result?.resultType === 'task') kept++;
        else refusal = { status: answer.status, code: answer.error?.code, reason: answer.error?.data?.reason };
      }
      fill.callers[sub] = { kept, refusal };
    }
    fill.usedMemoryGrowthMB = r1(((await usedMemory(redis)) - before) / 1e6);
    fill.bystanderToolsList = (await rpc('bystander', 'tools/list', {})).status;
    const checks = {
      cancelFreesPlaces:
        cancel.bystanderRanAfterMs !== undefined && cancel.askerRanAfterMs !== undefined ? 'PASS' : 'FAIL',
      tasksBoundedBelowMaxmemory:
        Object.values(fill.callers).every((c) => c.refusal?.code === -32003) &&
        Object.values(fill.callers).some((c) => c.refusal?.reason === 'task_store_full') &&
        fill.usedMemoryGrowthMB < STORE_BOUND_MB * 1.25 &&
        fill.usedMemoryGrowthMB < SHIPPED_MAXMEMORY_MB / 2 &&
        fill.bystanderToolsList === 200
          ? 'PASS'
          : 'FAIL',
    };
    const compliance = await runComplianceAbuse();
    Object.assign(checks, compliance.checks);
    return { cancel, fill, compliance, checks, failed: Object.values(checks).filter((v) => v === 'FAIL').length };
  } finally {
    await server.stop();
    await dropRedisPrefix(prefix).catch(() => undefined);
    redis.disconnect();
  }
}

/** The printed lines of round three. */
export function printAbuseRoundThree(t) {
  const ms = (v) => (v === undefined ? `not within ${FREED_WITHIN_MS / 1000} s` : `${v} ms`);
  const callers = Object.entries(t.fill.callers)
    .map(([sub, c]) => `${sub} kept ${c.kept} (then ${c.refusal ? `${c.refusal.status} ${c.refusal.reason}` : 'none'})`)
    .join(', ');
  console.log(
    `abuse, round three (tasks on Redis):\n` +
      `  cancel: ${t.cancel.tasks} tasks of one caller cancelled while ${t.cancel.waitingForAnswers} waited for answers; ` +
      `a bystander's task ran after ${ms(t.cancel.bystanderRanAfterMs)}, the caller's next after ${ms(t.cancel.askerRanAfterMs)}\n` +
      `  fill: 1 MB arguments: ${callers}; Redis used_memory +${t.fill.usedMemoryGrowthMB} MB (bound ${r1(STORE_BOUND_MB)} MB, ` +
      `shipped maxmemory ${SHIPPED_MAXMEMORY_MB} MiB); a bystander's tools/list ${t.fill.bystanderToolsList}\n` +
      `  compliance: against an endless answer exit ${t.compliance.endless.exit} after ${t.compliance.endless.seconds} s, ` +
      `peak RSS ${t.compliance.endless.peakRssMB} MB (the server got ${t.compliance.endless.serverSentMB} MB out); ` +
      `against 9 s answers with --deadline ${t.compliance.slow.deadlineS}: exit ${t.compliance.slow.exit} after ` +
      `${t.compliance.slow.seconds} s, peak RSS ${t.compliance.slow.peakRssMB} MB\n` +
      Object.entries(t.checks)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join('\n'),
  );
}

// Tasks (issue #25) on the Redis queue: one server with MCP_STORE=redis (tasks in Redis, run by BullMQ in the same
// process), the `echo_task` tool (the echo, declared `task: 'optional'`). It reports, each over BENCH_DURATION:
//   plain     tools/call of echo_task without the tasks extension (answered in the call): the reference
//   create    tools/call of echo_task with the extension: each answer a task handle (stored, queued, then run)
//   get       tasks/get of one finished task
// then, one call at a time (TASK_SAMPLES calls each), the end-to-end time of a plain call against a task created,
// run and polled until completed (the queue's overhead per call), and Redis's memory per finished task kept. Then
// what one caller can cost: a flood of task creations against a server on the default caps (kept records stop at the
// per-caller cap, so Redis stops growing), and the store reads a task's changes cost with 1 and with 100 listen
// streams following it on one replica (one shared watch per task: the same reads either way).
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dropRedisPrefix } from './redis.mjs';
import { load, startServer } from './servers.mjs';
import { RESULTS, ROOT } from './settings.mjs';

const CONNECTIONS = 16;
/** Calls measured one at a time, for each of plain and task end to end. */
const TASK_SAMPLES = 200;
/** Finished tasks whose Redis memory is measured. */
const MEMORY_TASKS = 2_000;
const EXTENSION = 'io.modelcontextprotocol/tasks';
const meta = (caps) =>
  `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":${JSON.stringify(caps)}}`;
const CALL = (id, caps) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo_task","arguments":{"text":"hello"},${meta(caps)}}}`;
const CALL_PROGRESS = (id) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"progress_task","arguments":{"steps":40,"stepMs":100},${meta(WITH)}}}`;
const GET = (id, taskId) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tasks/get","params":{"taskId":"${taskId}",${meta({ extensions: { [EXTENSION]: {} } })}}}`;
const headers = (method, name) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});
const WITH = { extensions: { [EXTENSION]: {} } };
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const p99 = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.99)];
const r1 = (v) => Math.round(v * 10) / 10;

async function rpc(url, method, name, body) {
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers: headers(method, name), body });
  return (await res.json()).result;
}

/** One task from creation to `completed` (polled at once, then every millisecond), in ms. */
async function taskEndToEnd(url, n) {
  const started = performance.now();
  const created = await rpc(url, 'tools/call', 'echo_task', CALL(`t${n}`, WITH));
  for (;;) {
    const task = await rpc(url, 'tasks/get', created.taskId, GET(`g${n}`, created.taskId));
    if (task.status === 'completed') return performance.now() - started;
    if (task.status !== 'working') throw new Error(`task ended ${task.status}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Listen streams following one task in the followers measure. */
const FOLLOWERS = 100;
/** Task creations of the flood (one caller, default caps). */
const FLOOD = 1_000;
const LISTEN = (id, taskId) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"subscriptions/listen","params":{"notifications":{"taskIds":["${taskId}"]},${meta(WITH)}}}`;

async function commandCalls(redis, command) {
  const line = new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(await redis.info('commandstats'));
  return line ? Number(line[1]) : 0;
}

/**
 * One task of 40 progress steps (about 4 s, a status write a second) followed by `streams` listen streams on the
 * same server: the HMGETs Redis served from its creation until every stream heard it completed.
 */
async function readsPerFollowedTask(url, redis, streams) {
  const before = await commandCalls(redis, 'hmget');
  const task = await rpc(url, 'tools/call', 'progress_task', CALL_PROGRESS(`f${streams}`));
  const aborts = [];
  const heard = [];
  for (let i = 0; i < streams; i++) {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: headers('subscriptions/listen', ''),
      body: LISTEN(`l${i}`, task.taskId),
      signal: abort.signal,
    });
    heard.push(
      (async () => {
        let text = '';
        for await (const chunk of res.body) {
          text += Buffer.from(chunk).toString();
          if (text.includes('"status":"completed"')) return;
        }
      })().catch(() => undefined),
    );
  }
  await Promise.all(heard);
  aborts.forEach((a) => a.abort());
  return { streams, hmgetPerTask: (await commandCalls(redis, 'hmget')) - before };
}

/** The bench server with the task tools, every store in Redis under `prefix`, no authentication. */
const serverEnv = (prefix) => ({
  NODE_ENV: 'development',
  BENCH_AUTH: 'off',
  BENCH_LOGS: 'off',
  BENCH_TASK_TOOLS: 'on',
  MCP_STORE: 'redis',
  MCP_REDIS_PREFIX: prefix,
});

/** One caller creating FLOOD tasks on a server with the default caps: how many were kept, and Redis's growth. */
async function keptFlood(redis) {
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const server = await startServer('mcp-tasks-flood', 'mcp', {
    ...serverEnv(prefix),
    MCP_REQUESTS_PER_MINUTE: '10000000',
    MCP_RATE_LIMIT_PER_MINUTE: '10000000',
  });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const before = await usedMemory(redis);
    let kept = 0;
    let refused = 0;
    let reason;
    for (let n = 0; n < FLOOD; n++) {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: headers('tools/call', 'echo_task'),
        body: CALL(`k${n}`, WITH),
      });
      const answer = await res.json();
      if (answer.result?.taskId) kept++;
      else {
        refused++;
        reason = answer.error?.data?.reason;
      }
    }
    await new Promise((r) => setTimeout(r, 1_000));
    return { created: FLOOD, kept, refused, reason, redisGrowthBytes: (await usedMemory(redis)) - before };
  } finally {
    await server.stop();
    await dropRedisPrefix(prefix);
  }
}

async function usedMemory(redis) {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))[1]);
}

/** Runs the scenario and returns the `tasks` results block. */
export async function runTasks() {
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const server = await startServer('mcp-tasks', 'mcp', {
    ...serverEnv(prefix),
    // The load creates tens of thousands of tasks: the caps are not what is measured here.
    MCP_MAX_TASKS: '10000000',
    MCP_MAX_TASKS_PER_SUBJECT: '10000000',
    MCP_MAX_KEPT_TASKS: '10000000',
    MCP_MAX_KEPT_TASKS_PER_SUBJECT: '10000000',
    MCP_MAX_TASK_BYTES_PER_SUBJECT: '100000000000',
    MCP_MAX_TASK_STORE_BYTES: '100000000000',
    MCP_MAX_RUNNING_TASKS_PER_SUBJECT: '10000000',
    MCP_MAX_STREAMS_PER_SUBJECT: '10000',
    MCP_TASK_CONCURRENCY: '32',
  });
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const plain = await load(
      server,
      '/mcp',
      CONNECTIONS,
      CALL('[<id>]', {}),
      [],
      'call',
      headers('tools/call', 'echo_task'),
    );
    const create = await load(
      server,
      '/mcp',
      CONNECTIONS,
      CALL('[<id>]', WITH),
      [],
      'any',
      headers('tools/call', 'echo_task'),
    );
    const done = await rpc(server.url, 'tools/call', 'echo_task', CALL('one', WITH));
    await new Promise((r) => setTimeout(r, 500));
    const get = await load(
      server,
      '/mcp',
      CONNECTIONS,
      GET('[<id>]', done.taskId),
      [],
      'any',
      headers('tasks/get', done.taskId),
    );
    // Let the queue drain the tasks the creation load made before timing calls one at a time.
    for (let i = 0; i < 600 && Number((await redis.llen(`${prefix}{tasks}:tasks:wait`)) ?? 0) > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const plainMs = [];
    const taskMs = [];
    for (let n = 0; n < TASK_SAMPLES; n++) {
      const t0 = performance.now();
      await rpc(server.url, 'tools/call', 'echo_task', CALL(`p${n}`, {}));
      plainMs.push(performance.now() - t0);
      taskMs.push(await taskEndToEnd(server.url, n));
    }
    // Memory per finished task: a fresh prefix's worth of tasks, created and finished, against Redis before them.
    await new Promise((r) => setTimeout(r, 1_000));
    const before = await usedMemory(redis);
    const ids = [];
    for (let n = 0; n < MEMORY_TASKS; n++)
      ids.push((await rpc(server.url, 'tools/call', 'echo_task', CALL(`m${n}`, WITH))).taskId);
    for (let i = 0; i < 600; i++) {
      const last = await rpc(server.url, 'tasks/get', ids.at(-1), GET('last', ids.at(-1)));
      if (last.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 500));
    const after = await usedMemory(redis);
    const oneKey = await redis.memory('USAGE', `${prefix}{tasks}:task:${ids[0]}`);
    const followers = [];
    for (const streams of [1, FOLLOWERS]) followers.push(await readsPerFollowedTask(server.url, redis, streams));
    const flood = await keptFlood(redis);
    return {
      connections: CONNECTIONS,
      plainCall: { reqPerSec: Math.round(plain.reqPerSec), p99Ms: plain.latencyMs.p99 },
      createTask: {
        reqPerSec: Math.round(create.reqPerSec),
        p99Ms: create.latencyMs.p99,
        pctOfPlain: Math.round((create.reqPerSec / plain.reqPerSec) * 100),
      },
      getTask: { reqPerSec: Math.round(get.reqPerSec), p50Ms: get.latencyMs.p50, p99Ms: get.latencyMs.p99 },
      endToEnd: {
        samples: TASK_SAMPLES,
        plainMedianMs: r1(median(plainMs)),
        plainP99Ms: r1(p99(plainMs)),
        taskMedianMs: r1(median(taskMs)),
        taskP99Ms: r1(p99(taskMs)),
        overheadMedianMs: r1(median(taskMs) - median(plainMs)),
      },
      redisBytesPerFinishedTask: Math.round((after - before) / MEMORY_TASKS),
      redisBytesOfOneTaskKey: oneKey,
      followers,
      flood,
    };
  } finally {
    redis.disconnect();
    await server.stop();
    await dropRedisPrefix(prefix);
  }
}

export function printTasks(t) {
  console.log('\nTasks on the Redis queue (BullMQ), one server, the echo as a task:');
  console.log(
    `  plain tools/call (no extension) x${t.connections}: ${t.plainCall.reqPerSec} req/s, p99 ${t.plainCall.p99Ms} ms`,
  );
  console.log(
    `  task creation x${t.connections}: ${t.createTask.reqPerSec} req/s (${t.createTask.pctOfPlain}% of the plain call), p99 ${t.createTask.p99Ms} ms`,
  );
  console.log(
    `  tasks/get x${t.connections}: ${t.getTask.reqPerSec} req/s, p50 ${t.getTask.p50Ms} ms, p99 ${t.getTask.p99Ms} ms`,
  );
  const e = t.endToEnd;
  console.log(
    `  one at a time (${e.samples}): plain call median ${e.plainMedianMs} ms (p99 ${e.plainP99Ms}); task created, run and polled to completed median ${e.taskMedianMs} ms (p99 ${e.taskP99Ms}): overhead ${e.overheadMedianMs} ms`,
  );
  console.log(
    `  Redis memory per finished task kept: ${t.redisBytesPerFinishedTask} bytes (one task key: ${t.redisBytesOfOneTaskKey} bytes)`,
  );
  console.log(
    `  store reads of one task's life (40 progress steps), followed by listen streams: ${t.followers.map((f) => `${f.streams} stream(s) ${f.hmgetPerTask} HMGET`).join(', ')}`,
  );
  const f = t.flood;
  console.log(
    `  one caller creating ${f.created} tasks on the default caps: ${f.kept} kept, ${f.refused} refused (${f.reason}); Redis grew ${Math.round(f.redisGrowthBytes / 1024)} KiB`,
  );
}

/** Merges the block into bench/results/latest.json (BENCH_ONLY=tasks). */
export function mergeTasks(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...prev, tasks: block }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (tasks block merged)`);
}

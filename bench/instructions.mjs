// Instructions per request, counted by valgrind's callgrind (repeatable whatever else the machine is doing, unlike
// req/s on a machine whose speed swings): one server (`BENCH_INSTR_CONFIG` = ceiling | ceiling-raw | bare | prod,
// default prod; ceiling-raw is the adapter as our transport uses it, see bench/fixture/ceiling.app.ts; on
// MCP_HTTP_ADAPTER, default express) runs under callgrind; its counts are dumped after BENCH_INSTR_WARMUP calls (JIT
// warm) and again after BENCH_INSTR_CALLS more tools/call at 8 at a time: the second part over the calls it saw is
// printed, the instructions per call of the event loop's thread (see BENCH_INSTR_THREADS). BENCH_AB_SERVE counts
// another build's server the same way, for an A/B of two builds. Not the bench of record: instructions are not time
// (a cache miss costs more than an add), but a change that removes work shows here, however the machine's speed swings.
// About 3 minutes a server (valgrind runs it some 50 times slower).
//   tsc -p bench/tsconfig.json && node bench/instructions.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, newId, openSession, post } from './lib/mcp-client.mjs';
import { NODE, NODE_FLAGS as IMAGE_FLAGS, SERVE, TMP, envSettings, productionEnv } from './lib/settings.mjs';

const config = process.env.BENCH_INSTR_CONFIG ?? 'prod';
const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
const WARMUP = Number(process.env.BENCH_INSTR_WARMUP ?? 4000);
const CALLS = Number(process.env.BENCH_INSTR_CALLS ?? 2000);
// The event loop's thread only, by default. Under valgrind 4,000 calls do not finish V8's tiering: its compiler threads
// were still optimising during the counted calls (about 110,000 instructions a call on Express, swinging by several
// thousand between runs of one build), work a native server has done within its first seconds. With 16,000 calls of
// warm-up, every thread together counts what the event loop alone counts after 4,000 (280,586 against 279,727, one
// build): the event loop's count is the call's cost, repeatable to 0.1%. BENCH_INSTR_THREADS=all counts every thread
// (then raise BENCH_INSTR_WARMUP to 16000).
const MAIN_ONLY = process.env.BENCH_INSTR_THREADS !== 'all';
// BENCH_INSTR_NODE_FLAGS='--single-threaded': flags for the server's node (V8's, which NODE_OPTIONS refuses). With
// --single-threaded V8 compiles and collects garbage on the event loop's thread, so its count is all of a call's work.
// It does not make production counts repeatable: two counts of one build on Fastify were 6.5% apart (bench/HISTORY.md).
const NODE_FLAGS = (process.env.BENCH_INSTR_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const THREAD = MAIN_ONLY ? '-01' : '';
// One folder per run, so that two counts (one per adapter, say) can run side by side.
const dir = resolve(TMP, 'instructions', String(process.pid));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const issuer = await startIssuer();
const sink = await startOtlpSink();
const log = resolve(dir, 'calls.log');
writeFileSync(log, '');

// BENCH_INSTR_ENV='K=V,K=V': more settings for the server (e.g. BENCH_DOWNSTREAM=on).
const extra = envSettings(process.env.BENCH_INSTR_ENV);
function envFor() {
  const base = { PORT: '0', MCP_HTTP_ADAPTER: adapter, PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  if (config === 'prod')
    return { ...base, ...productionEnv({ jwksUri: issuer.jwksUri, logFile: log, otlpUrl: sink.url }) };
  if (config.startsWith('ceiling')) {
    // ceiling-raw: the adapter as our transport uses it (body unparsed by the adapter, Node's response written).
    const raw = config === 'ceiling-raw' ? { BENCH_CEILING_RAW: '1' } : {};
    const file = resolve(dir, 'call.json');
    writeFileSync(file, '{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"hello"}]}}');
    return { ...base, ...raw, NODE_ENV: 'production', BENCH_CEILING_CALL_FILE: file, BENCH_CEILING_LIST_FILE: file };
  }
  return { ...base, NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' };
}

/** Starts `serve` under callgrind (collection off) and resolves once it prints READY. */
function start(label, serve) {
  const out = resolve(dir, `${label}.out`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      ...(MAIN_ONLY ? ['--separate-threads=yes'] : []),
      NODE,
      ...IMAGE_FLAGS,
      ...NODE_FLAGS,
      serve,
      config.startsWith('ceiling') ? 'ceiling' : 'mcp',
    ],
    { env: envFor(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-8192)));
  return new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      const m = /READY (\d+)/.exec(String(d));
      if (m) ok({ child, out, url: `http://127.0.0.1:${m[1]}` });
    });
    child.once('exit', (code) => fail(new Error(`${label} exited ${code}: ${err}`)));
  });
}

const bearer = config === 'prod' ? { authorization: `Bearer ${issuer.token}` } : {};

async function calls(url, sessions, n) {
  let next = 0;
  const worker = async (session) => {
    while (next < n) {
      next++;
      const headers = { ...BASE_HEADERS, ...bearer, ...(session ? { 'mcp-session-id': session } : {}) };
      const r = await post(`${url}/mcp`, CALL_BODY(newId()), headers);
      if (r.status !== 200 || !r.text.includes('hello')) throw new Error(`call answered ${r.status}: ${r.text}`);
    }
  };
  await Promise.all(sessions.map(worker));
}

/**
 * Asks callgrind for a dump (part `part` of the output) and keeps the server busy with single calls until it is
 * written (callgrind takes commands only while the program runs); returns how many calls that took.
 */
async function dump(server, sessions, part) {
  const file = `${server.out}.${part}${THREAD}`;
  const control = spawn('callgrind_control', ['--dump', String(server.child.pid)], { stdio: 'ignore' });
  let extra = 0;
  while (!existsSync(file) || !/^totals: /m.test(readFileSync(file, 'utf8'))) {
    await calls(server.url, sessions.slice(0, 1), 1);
    extra++;
    await new Promise((ok) => setTimeout(ok, 20));
  }
  await new Promise((ok) => (control.exitCode !== null ? ok() : control.once('exit', ok)));
  return extra;
}

async function count(label, serve) {
  const server = await start(label, serve);
  const sessions = [];
  for (let i = 0; i < 8; i++)
    sessions.push(config.startsWith('ceiling') ? undefined : await openSession(server.url, bearer));
  await calls(server.url, sessions, WARMUP);
  const before = await dump(server, sessions, 1);
  await calls(server.url, sessions, CALLS);
  const after = await dump(server, sessions, 2);
  await new Promise((ok) => {
    server.child.once('exit', ok);
    server.child.kill('SIGKILL');
  });
  const total = Number(/^totals: (\d+)/m.exec(readFileSync(`${server.out}.2${THREAD}`, 'utf8'))[1]);
  // The calls the measured part saw: the measured ones, those sent while the first dump was pending (their share of
  // the part is not known: counted as half), those sent while the second was.
  return total / (CALLS + before / 2 + after);
}

const a = await count('a', SERVE);
const threads = MAIN_ONLY ? ', event loop only' : '';
console.log(`${config} on ${adapter}: ${Math.round(a)} instructions per call (this build${threads})`);
if (process.env.BENCH_AB_SERVE) {
  const b = await count('b', process.env.BENCH_AB_SERVE);
  console.log(
    `${config} on ${adapter}: ${Math.round(b)} instructions per call (BENCH_AB_SERVE${threads}); a/b ${(a / b).toFixed(3)}`,
  );
}
await sink.stop();
await issuer.stop();
// BENCH_INSTR_KEEP=1 keeps callgrind's files (per thread with BENCH_INSTR_THREADS=main) for callgrind_annotate.
if (process.env.BENCH_INSTR_KEEP === '1') console.log(`callgrind files kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });

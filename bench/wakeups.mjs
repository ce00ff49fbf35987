// What the kernel does on the server's event loop, per request, for the bare server and the production configuration
// on one adapter (MCP_HTTP_ADAPTER, default express): tools/call at 16 connections, each server's event loop sampled
// by `perf record` (call stacks, kernel included) for BENCH_WAKEUPS_SECONDS (default: BENCH_DURATION less 2) inside its
// measured load.
// Reported per request: the event loop's sampled time, the part in the kernel, and the part spent waking the reader
// of a socket (`sock_def_readable`, under the answer's write: the load generator asleep in epoll on the other core).
// Over loopback the sender's kernel does the receiver's TCP work and wakes it, so a server whose client sleeps more
// often (a slower one) pays more per answer; a real client on another machine is woken by its own network card.
// Needs perf with kernel call stacks (root, or kernel.perf_event_paranoid <= 1); says so and stops otherwise.
//   tsc -p bench/tsconfig.json && MCP_HTTP_ADAPTER=fastify node bench/wakeups.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { BASE_HEADERS, CALL_BODY, openSession } from './lib/mcp-client.mjs';
import { load, startServer } from './lib/servers.mjs';
import { DURATION, TMP, WARMUP, productionEnv } from './lib/settings.mjs';

const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
// perf samples from a second into the measured load to a second before its end (3 s of the default 5).
const SECONDS = Number(process.env.BENCH_WAKEUPS_SECONDS ?? Math.max(1, DURATION - 2));
const HZ = 999;
// Without leave to read the kernel's stacks (perf_event_paranoid above 1, not root) perf falls back to user-space
// samples and every kernel figure would read 0: refused here, as a missing perf is.
const paranoid = Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8'));
const probe = spawnSync('perf', ['record', '-e', 'cpu-clock:k', '-g', '-o', '/dev/null', '--', 'true'], {
  stdio: 'ignore',
});
if (probe.error || probe.status !== 0 || (paranoid > 1 && process.getuid?.() !== 0)) {
  console.error('bench/wakeups.mjs needs perf (linux-perf) with kernel call stacks: not available here');
  process.exit(2);
}
if (DURATION < SECONDS + 2)
  throw new Error(`BENCH_DURATION must be at least ${SECONDS + 2} s (perf samples ${SECONDS})`);
const dir = resolve(TMP, 'wakeups');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const issuer = await startIssuer();
const sink = await startOtlpSink();
const logFile = resolve(dir, 'prod.log');
writeFileSync(logFile, '');
const bearer = { authorization: `Bearer ${issuer.token}` };
const configs = {
  bare: { env: { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' }, auth: {} },
  prod: { env: productionEnv({ jwksUri: issuer.jwksUri, logFile, otlpUrl: sink.url }), auth: bearer },
};

/** Samples of the event loop's thread (its thread id is the process id): all, in the kernel, waking a reader. */
function classify(data, pid) {
  const out = spawnSync('perf', ['script', '-i', data, '-F', 'tid,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  }).stdout;
  const counts = { all: 0, kernel: 0, wake: 0 };
  for (const sample of out.split('\n\n')) {
    const lines = sample.trim().split('\n');
    if (Number(lines[0]?.trim().split(/\s+/)[0]) !== pid || lines.length < 2) continue;
    counts.all++;
    if (lines[1].includes('[kernel.kallsyms]')) counts.kernel++;
    if (lines.some((l) => l.includes(' sock_def_readable '))) counts.wake++;
  }
  return counts;
}

async function measure(name) {
  const { env, auth } = configs[name];
  const server = await startServer(`wakeups-${name}`, 'mcp', { MCP_HTTP_ADAPTER: adapter, ...env });
  try {
    const sessions = [];
    for (let i = 0; i < 16; i++) sessions.push(await openSession(server.url, auth));
    const data = resolve(dir, `${name}.data`);
    const loading = load(server, '/mcp', 16, CALL_BODY('[<id>]'), sessions, 'call', { ...BASE_HEADERS, ...auth });
    // A load that fails at once is reported after perf's window, not left an unhandled rejection meanwhile.
    loading.catch(() => undefined);
    // Past the warm-up and the load's first second, so that the samples fall inside the measured load.
    await new Promise((r) => setTimeout(r, (WARMUP + 1) * 1_000));
    const args = ['record', '-e', 'cpu-clock', '-F', String(HZ), '-g', '-p', String(server.child.pid), '-o', data];
    const perf = spawn('perf', [...args, '--', 'sleep', String(SECONDS)], { stdio: 'ignore' });
    const code = await new Promise((r) => perf.on('exit', r));
    const r = await loading;
    if (code !== 0) throw new Error(`perf record exited with ${code}`);
    const counts = classify(data, server.child.pid);
    const us = (n) => (n / HZ / (r.reqPerSec * SECONDS)) * 1e6;
    return { name, reqPerSec: r.reqPerSec, all: us(counts.all), kernel: us(counts.kernel), wake: us(counts.wake) };
  } finally {
    await server.stop();
  }
}

try {
  const rows = [await measure('bare'), await measure('prod')];
  const f1 = (v) => v.toFixed(1).padStart(8);
  console.log(`adapter ${adapter}: tools/call x16, the event loop sampled by perf for ${SECONDS} s; us per request`);
  console.log(`${''.padEnd(48)}${rows.map((r) => r.name.padStart(8)).join('')}`);
  console.log(`${'req/s (thousands)'.padEnd(48)}${rows.map((r) => f1(r.reqPerSec / 1000)).join('')}`);
  console.log(`${'the event loop (sampled)'.padEnd(48)}${rows.map((r) => f1(r.all)).join('')}`);
  console.log(`${'  in the kernel'.padEnd(48)}${rows.map((r) => f1(r.kernel)).join('')}`);
  console.log(`${'    waking a socket reader (sock_def_readable)'.padEnd(48)}${rows.map((r) => f1(r.wake)).join('')}`);
} finally {
  await sink.stop();
  await issuer.stop();
}

// Child processes of the bench: the pinned servers (serve.js), the pinned probes (load.mjs,
// idle-sessions.mjs), and the CPU accounting that tells whether the server's core was the limit.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BASE_HEADERS } from './mcp-client.mjs';
import { CPU_PROF, DURATION, LOAD, NODE, NODE_FLAGS, SERVE, TMP, WARMUP } from './settings.mjs';

function hasTaskset() {
  return spawnSync('taskset', ['-c', '0', 'true']).status === 0;
}
export const PIN = hasTaskset();
const pinned = (core, args) => (PIN ? ['taskset', ['-c', String(core), ...args]] : [args[0], args.slice(1)]);

/** The environment for a bench server or probe: ours, minus any MCP_* settings from the caller's shell. */
function childEnv(env) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('MCP_') && k !== 'BENCH_AUTH' && k !== 'BENCH_LIMITS'),
  );
  return { ...base, NODE_OPTIONS: '', ...env };
}

/**
 * Starts `serve.js <which>` (mcp | ceiling) pinned to core 0, with the image's Node flags (NODE_FLAGS) and then
 * `nodeFlags`; `name` labels it (and its CPU profiles). `serve` names another build's serve.js (quick.mjs's A/B of
 * two builds).
 */
export function startServer(name, which, env, serve = SERVE, nodeFlags = []) {
  const flags = which === 'mcp' && CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(TMP, 'prof', name)}`] : [];
  return startPinned(name, [...NODE_FLAGS, ...nodeFlags, ...flags, serve, which], env);
}

/**
 * Starts the ceiling (a bare Nest app answering canned bodies, on Express or with `adapter` 'fastify' on Fastify) in
 * production mode: `callText` and `listText` are our own server's answers to tools/call and tools/list, written to
 * files it serves verbatim.
 */
export function startCeiling(callText, listText = callText, adapter = 'express') {
  const name = adapter === 'express' ? 'ceiling' : `ceiling-${adapter}`;
  const callFile = resolve(TMP, `${name}-call.json`);
  const listFile = resolve(TMP, `${name}-list.json`);
  writeFileSync(callFile, callText);
  writeFileSync(listFile, listText);
  return startServer(name, 'ceiling', {
    NODE_ENV: 'production',
    MCP_HTTP_ADAPTER: adapter,
    BENCH_CEILING_CALL_FILE: callFile,
    BENCH_CEILING_LIST_FILE: listFile,
  });
}

/**
 * Starts `node <args>` pinned to core 0 with PORT=0 and resolves once it prints `READY <port>` on stdout (as
 * bench/fixture/serve.ts and the peers in bench/peers/ do): `{ url, child, stderr, stop }`. Rejects if it exits
 * first or takes over 30 s.
 */
export function startPinned(name, args, env) {
  const [cmd, argv] = pinned(0, [NODE, ...args]);
  const child = spawn(cmd, argv, { env: childEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  // The last 64 KB of stderr is plenty to say why a server failed, and bounded however much it logs.
  child.stderr.on('data', (d) => (err = (err + d).slice(-65_536)));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} server did not start:\n${err}`)), 30_000);
    const onData = (d) => {
      out += d;
      const m = /READY (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        // Keep reading (a full pipe would block the server's logging) but stop keeping what it writes.
        child.stdout.off('data', onData);
        child.stdout.resume();
        ok({ url: `http://127.0.0.1:${m[1]}`, child, stderr: () => err, stop: () => stopChild(child) });
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} server exited with ${code}:\n${err}`));
    });
  });
}

/** True once a child process has ended (by itself, or killed by a signal). */
export const exited = (child) => child.exitCode !== null || child.signalCode !== null;

function stopChild(child) {
  if (exited(child)) return Promise.resolve();
  return new Promise((ok) => {
    child.removeAllListeners('exit');
    child.once('exit', () => ok());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
/** CPU seconds used so far by a process (utime + stime from /proc), or undefined off Linux. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Share of all cores busy over one second (from /proc/stat), or undefined off Linux. */
export async function machineBusyPct() {
  const read = () => {
    try {
      const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
    } catch {
      return undefined;
    }
  };
  const a = read();
  await new Promise((r) => setTimeout(r, 1000));
  const b = read();
  return a && b && b.total > a.total ? (1 - (b.idle - a.idle) / (b.total - a.total)) * 100 : undefined;
}

export function runChild(core, args, label, onLine = () => undefined, env = {}) {
  const [cmd, argv] = pinned(core, [NODE, ...args]);
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let seen = 0;
    child.stdout.on('data', (d) => {
      out += d;
      const lines = out.split('\n');
      for (; seen < lines.length - 1; seen++) onLine(lines[seen]);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) return fail(new Error(`${label} failed (exit ${code}):\n${err}${out}`));
      ok(JSON.parse(line));
    });
  });
}

/** One autocannon run (warm-up, then measured) against a server, with the server's CPU share while measured. */
export async function load(server, path, connections, body, sessions, verify, headers = BASE_HEADERS) {
  const cfg = {
    url: server.url,
    path,
    connections,
    duration: DURATION,
    warmup: WARMUP,
    body,
    headers,
    sessions,
    verify,
  };
  let start;
  const r = await runChild(1, [LOAD, JSON.stringify(cfg)], `autocannon ${path} x${connections}`, (line) => {
    if (line === 'PHASE measure') start = { cpu: cpuSeconds(server.child.pid), at: performance.now() };
  });
  const end = cpuSeconds(server.child.pid);
  // Near 100%: the server's core is saturated, so req/s measures the server. Well below: something else
  // (another process on the core, or the client) limits, and req per server CPU-second is the fairer figure.
  const used = start?.cpu !== undefined && end !== undefined ? end - start.cpu : undefined;
  r.serverCpuPct = used !== undefined ? (used / ((performance.now() - start.at) / 1000)) * 100 : undefined;
  r.reqPerServerCpuSec = used ? r.requestsTotal / used : undefined;
  return r;
}

/** VmRSS of a process in MB (from /proc/<pid>/status), or undefined off Linux. */
export function rssMB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// `npm run bench`: throughput of our MCP server against a bare Nest "ceiling", plus idle-session memory.
// A report, not a test: it always exits 0 unless the bench itself breaks; FAIL lines say what missed.
//
// The npm script builds first (nest build helpdesk, tsc -p bench/tsconfig.json). Servers run pinned to
// core 0, the load generator (autocannon, its own process) to core 1.
//
// Three servers: the ceiling (bare Nest), `mcp` (our module, authentication off) and `mcp-auth` (the same
// fixture with authentication on, NODE_ENV=production, verifying RS256 JWTs against a JWKS that this
// script serves itself on 127.0.0.1). Only one of them is under load at a time.
//
// Environment:
//   BENCH_DURATION   seconds measured per scenario (default 5)
//   BENCH_WARMUP     seconds of discarded warm-up before each (default 1)
//   BENCH_ROUNDS     repeat the whole load plan; the median round per scenario is reported (default 3)
//   BENCH_CPU_PROF=1 run both MCP servers with --cpu-prof; profiles land in .bench/prof/<server>/
//                    (summarise with bench/profile-summary.mjs)
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVE = resolve(ROOT, 'dist/bench/bench/fixture/serve.js');
const LOAD = resolve(ROOT, 'bench/load.mjs');
const IDLE = resolve(ROOT, 'bench/idle-sessions.mjs');
const TMP = resolve(ROOT, '.bench');
const RESULTS = resolve(ROOT, 'bench/results/latest.json');
const NODE = process.execPath;

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CPU_PROF = process.env.BENCH_CPU_PROF === '1';
const PROTOCOL = '2025-11-25';
const TOOL_COUNT = 50;
const CONNECTIONS = [16, 64];
const LIST_CONNECTIONS = 16;
// call, list: against the ceiling; auth: the authenticated tools/call against the unauthenticated one.
const TARGETS = { call: 0.5, list: 0.8, auth: 0.8, idleMB: 100 };
const AUTH_ISSUER = 'https://issuer.bench.invalid';
const AUTH_AUDIENCE = 'mcp:bench';

const hyperid = createRequire(import.meta.url)('hyperid')({ urlSafe: true, fixedLength: true });
const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL };
const CALL_BODY = (id) => `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`;
const LIST_BODY = (id) => `{"jsonrpc":"2.0","id":"${id}","method":"tools/list","params":{}}`;

// ---------------------------------------------------------------------------------------------------

function hasTaskset() {
  return spawnSync('taskset', ['-c', '0', 'true']).status === 0;
}
const PIN = hasTaskset();
const pinned = (core, args) => (PIN ? ['taskset', ['-c', String(core), ...args]] : [args[0], args.slice(1)]);

/** The environment for a bench server or probe: ours, minus any MCP_* settings from the caller's shell. */
function childEnv(env) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MCP_') && k !== 'BENCH_AUTH'));
  return { ...base, NODE_OPTIONS: '', ...env };
}

/** Starts `serve.js <which>` (mcp | ceiling) pinned to core 0; `name` labels it (and its CPU profiles). */
function startServer(name, which, env) {
  const flags = which === 'mcp' && CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(TMP, 'prof', name)}`] : [];
  const [cmd, args] = pinned(0, [NODE, ...flags, SERVE, which]);
  const child = spawn(cmd, args, { env: childEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} server did not start:\n${err}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ url: `http://127.0.0.1:${m[1]}`, child, stderr: () => err, stop: () => stopChild(child) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} server exited with ${code}:\n${err}`));
    });
  });
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    child.removeAllListeners('exit');
    child.once('exit', () => ok());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
/** CPU seconds used so far by a process (utime + stime from /proc), or undefined off Linux. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Share of all cores busy over one second (from /proc/stat), or undefined off Linux. */
async function machineBusyPct() {
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

function runChild(core, args, label, onLine = () => undefined, env = {}) {
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

async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * A real token issuer for the auth scenario: an RS256 key pair, its public half served as a JWKS on
 * an ephemeral loopback port, and one token (all scopes, 1 h) with the iss/aud the server expects.
 */
async function startIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = 'bench-rs256';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] });
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/jwks.json') {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    } else res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const token = await new SignJWT({ scope: '*' })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(AUTH_ISSUER)
    .setAudience(AUTH_AUDIENCE)
    .setSubject('bench-user')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  return {
    jwksUri: `http://127.0.0.1:${server.address().port}/jwks.json`,
    token,
    fetches: () => fetches,
    stop: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

/** initialize + notifications/initialized; returns the session id. */
async function openSession(url, extraHeaders = {}) {
  const init = await post(`${url}/mcp`, JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
  }), { ...BASE_HEADERS, ...extraHeaders });
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`initialize answered ${init.status}: ${init.text}`);
  const done = await post(`${url}/mcp`, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { ...BASE_HEADERS, ...extraHeaders, 'mcp-session-id': id });
  if (done.status !== 202) throw new Error(`notifications/initialized answered ${done.status}: ${done.text}`);
  return id;
}

/**
 * Before measuring mcp-auth: the auth path must really be on. No token and a forged signature get
 * 401 (with a Bearer challenge); the valid token gets a tools/call answer. Throws otherwise.
 */
async function checkAuth(url, session, bearer) {
  const initBody = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } } });
  const noToken = await post(`${url}/mcp`, initBody, BASE_HEADERS);
  const challenge = noToken.headers.get('www-authenticate') ?? '';
  if (noToken.status !== 401 || !challenge.startsWith('Bearer ')) throw new Error(`auth check: a request without a token answered ${noToken.status} (${challenge || 'no WWW-Authenticate'}), expected 401`);
  const sessionNoToken = await post(`${url}/mcp`, CALL_BODY(hyperid()), { ...BASE_HEADERS, 'mcp-session-id': session });
  if (sessionNoToken.status !== 401) throw new Error(`auth check: tools/call on a session without a token answered ${sessionNoToken.status}, expected 401`);
  // Same header and claims, signed by a key the JWKS does not hold.
  const { privateKey: otherKey } = await generateKeyPair('RS256');
  const forgedToken = await new SignJWT({ scope: '*' }).setProtectedHeader({ alg: 'RS256', kid: 'bench-rs256', typ: 'JWT' })
    .setIssuer(AUTH_ISSUER).setAudience(AUTH_AUDIENCE).setSubject('bench-user').setIssuedAt().setExpirationTime('1h').sign(otherKey);
  const forged = await post(`${url}/mcp`, CALL_BODY(hyperid()), { ...BASE_HEADERS, authorization: `Bearer ${forgedToken}`, 'mcp-session-id': session });
  if (forged.status !== 401) throw new Error(`auth check: a forged token answered ${forged.status}, expected 401`);
  const ok = await post(`${url}/mcp`, CALL_BODY(hyperid()), { ...BASE_HEADERS, ...bearer, 'mcp-session-id': session });
  if (ok.status !== 200 || JSON.parse(ok.text).result?.content?.[0]?.text !== 'hello') throw new Error(`auth check: tools/call with the token failed: ${ok.status} ${ok.text}`);
  return { noToken: { status: noToken.status, challenge }, sessionNoToken: sessionNoToken.status, forged: forged.status, valid: ok.status };
}

/** One autocannon run (warm-up, then measured) against a server, with the server's CPU share while measured. */
async function load(server, path, connections, body, sessions, verify, headers = BASE_HEADERS) {
  const cfg = { url: server.url, path, connections, duration: DURATION, warmup: WARMUP, body, headers, sessions, verify };
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

const fmtPct = (v) => (v === undefined ? '?' : `${Math.round(v)}%`);
const valid = (r) => r.non200 === 0 && r.errors === 0 && r.timeouts === 0 && r.mismatches === 0 && r.requestsTotal > 0;

// ---------------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run "npm run bench" (it builds the fixture first)`);
  mkdirSync(TMP, { recursive: true });
  mkdirSync(dirname(RESULTS), { recursive: true });
  const loadBefore = loadavg();
  const busyBefore = await machineBusyPct();
  if (busyBefore !== undefined && busyBefore > 15) {
    console.warn(`WARNING: the machine is ${Math.round(busyBefore)}% busy before the bench starts; other work will skew the numbers (see "srv cpu" and "cpu ratio").`);
  }
  if (!PIN) console.warn('WARNING: taskset not available; servers and load generator are NOT pinned to separate cores.');
  console.log(`bench: ${DURATION}s measured + ${WARMUP}s warm-up per scenario, ${ROUNDS} round(s); server on core 0, autocannon on core 1; Node ${process.version}\n`);

  // All servers run for the whole bench (an idle server costs nothing), so each MCP scenario is
  // measured right after its ceiling, and the authenticated one right after the unauthenticated one:
  // a noisy neighbour then hits both sides of a ratio alike.
  // The unauthenticated server runs with NODE_ENV=development because the module refuses
  // `auth: { disabled: true }` under NODE_ENV=production (a boot error); Express only changes error
  // verbosity and view caching with it, nothing on this path. The ceiling and mcp-auth stay in production.
  const issuer = await startIssuer();
  const mcp = await startServer('mcp', 'mcp', { NODE_ENV: 'development', BENCH_AUTH: 'off' });
  let ceiling;
  let mcpAuth;
  let authCheck;
  const runs = {};
  try {
    const sessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS, LIST_CONNECTIONS); i++) sessions.push(await openSession(mcp.url));
    const headers = { ...BASE_HEADERS, 'mcp-session-id': sessions[0] };
    // Capture one real answer of each (same id length as under load) for the ceiling's canned bodies.
    const call = await post(`${mcp.url}/mcp`, CALL_BODY(hyperid()), headers);
    const list = await post(`${mcp.url}/mcp`, LIST_BODY(hyperid()), headers);
    if (call.status !== 200 || JSON.parse(call.text).result?.content?.[0]?.text !== 'hello') throw new Error(`tools/call check failed: ${call.status} ${call.text}`);
    const listed = JSON.parse(list.text).result;
    if (list.status !== 200 || listed?.tools?.length !== TOOL_COUNT || listed.nextCursor !== undefined) {
      throw new Error(`tools/list check failed: expected ${TOOL_COUNT} tools on one page, got ${listed?.tools?.length} (status ${list.status})`);
    }
    const callFile = resolve(TMP, 'ceiling-call.json');
    const listFile = resolve(TMP, 'ceiling-list.json');
    writeFileSync(callFile, call.text);
    writeFileSync(listFile, list.text);
    ceiling = await startServer('ceiling', 'ceiling', { NODE_ENV: 'production', BENCH_CEILING_CALL_FILE: callFile, BENCH_CEILING_LIST_FILE: listFile });
    const fake = Array.from({ length: sessions.length }, () => crypto.randomUUID());

    // The same fixture with authentication on, as in production: JWTs verified against our JWKS.
    mcpAuth = await startServer('mcp-auth', 'mcp', {
      NODE_ENV: 'production',
      BENCH_AUTH: 'on',
      MCP_JWKS_URI: issuer.jwksUri,
      MCP_JWT_ISSUER: AUTH_ISSUER,
      MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
    });
    const bearer = { authorization: `Bearer ${issuer.token}` };
    const authSessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) authSessions.push(await openSession(mcpAuth.url, bearer));
    authCheck = await checkAuth(mcpAuth.url, authSessions[0], bearer);
    console.log(
      `auth check (mcp-auth, NODE_ENV=production): no token -> ${authCheck.noToken.status} (WWW-Authenticate: ${authCheck.noToken.challenge}); ` +
        `session request without token -> ${authCheck.sessionNoToken}; forged signature -> ${authCheck.forged}; valid token -> ${authCheck.valid}; ` +
        `JWKS fetched ${issuer.fetches()} time(s)\n`,
    );
    const authHeaders = { ...BASE_HEADERS, ...bearer };

    const plan = [
      ...CONNECTIONS.flatMap((c) => [
        { key: `ceiling.call.${c}`, label: `ceiling tools/call x${c}`, server: ceiling, path: '/mcp', c, body: CALL_BODY, sessions: fake, verify: 'call' },
        { key: `mcp.call.${c}`, label: `mcp tools/call x${c}`, server: mcp, path: '/mcp', c, body: CALL_BODY, sessions, verify: 'call' },
        { key: `auth.call.${c}`, label: `mcp tools/call (auth) x${c}`, server: mcpAuth, path: '/mcp', c, body: CALL_BODY, sessions: authSessions, verify: 'call', headers: authHeaders, ref: `mcp.call.${c}` },
      ]),
      { key: 'ceiling.list', label: `ceiling list(${TOOL_COUNT}) x${LIST_CONNECTIONS}`, server: ceiling, path: '/mcp-list', c: LIST_CONNECTIONS, body: LIST_BODY, sessions: fake, verify: 'list' },
      { key: 'mcp.list', label: `mcp tools/list(${TOOL_COUNT}) x${LIST_CONNECTIONS}`, server: mcp, path: '/mcp', c: LIST_CONNECTIONS, body: LIST_BODY, sessions, verify: 'list' },
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(`  round ${round}/${ROUNDS}`);
      for (const p of plan) {
        process.stdout.write(`  ${p.label} ...`);
        const r = await load(p.server, p.path, p.c, p.body('[<id>]'), p.sessions.slice(0, p.c), p.verify, p.headers);
        (runs[p.key] ??= []).push(r);
        const vsRef = p.ref ? `, ${Math.round((r.reqPerSec / runs[p.ref].at(-1).reqPerSec) * 100)}% of ${p.ref}` : '';
        process.stdout.write(` ${Math.round(r.reqPerSec)} req/s (server cpu ${fmtPct(r.serverCpuPct)}, client cpu ${fmtPct(r.clientCpuPct)}${vsRef})${valid(r) ? '' : ` INVALID (non-200 ${r.non200}, errors ${r.errors}, timeouts ${r.timeouts}, mismatches ${r.mismatches})`}\n`);
      }
    }
  } finally {
    await Promise.all([mcp.stop(), ceiling?.stop(), mcpAuth?.stop()]);
    await issuer.stop();
  }
  // Several rounds: the median run by req/s stands for the scenario; counts of failures add up.
  const measured = Object.fromEntries(
    Object.entries(runs).map(([key, list]) => {
      const median = [...list].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor((list.length - 1) / 2)];
      const sum = (f) => list.reduce((n, r) => n + r[f], 0);
      const effs = list.map((r) => r.reqPerServerCpuSec).filter((v) => v !== undefined).sort((a, b) => a - b);
      return [key, {
        ...median,
        reqPerServerCpuSec: effs.length ? effs[Math.floor((effs.length - 1) / 2)] : undefined,
        non200: sum('non200'), errors: sum('errors'), timeouts: sum('timeouts'), mismatches: sum('mismatches'),
        rounds: list.map((r) => Math.round(r.reqPerSec)),
      }];
    }),
  );

  // --- idle sessions memory -----------------------------------------------------------------------
  process.stdout.write('  idle sessions ...');
  // It boots the fixture in-process with authentication off, hence NODE_ENV=development (see above).
  const idle = await runChild(0, ['--expose-gc', IDLE], 'idle sessions probe', undefined, { NODE_ENV: 'development', BENCH_AUTH: 'off' });
  process.stdout.write(` +${idle.addedMB.toFixed(1)} MB\n\n`);

  // --- report -------------------------------------------------------------------------------------
  const rows = [];
  const median = (xs) => {
    const v = xs.filter((x) => x !== undefined && Number.isFinite(x)).sort((a, b) => a - b);
    return v.length ? v[Math.floor((v.length - 1) / 2)] : undefined;
  };
  /** Ratio of one scenario to another round by round (both measured back to back). */
  const perRound = (key, refKey, f) => runs[key].map((r, i) => (r[f] && runs[refKey][i]?.[f] ? r[f] / runs[refKey][i][f] : undefined));
  // against: what the ratio compares with ('ceiling', or 'mcp' for the auth rows, taken round by round).
  const row = (scenario, short, key, refKey, target, against = 'ceiling') => {
    const r = measured[key];
    const ref = refKey ? measured[refKey] : undefined;
    const sameRound = against !== 'ceiling';
    const roundRatios = ref && sameRound ? perRound(key, refKey, 'reqPerSec') : undefined;
    const ratio = !ref ? undefined : sameRound ? median(roundRatios) : r.reqPerSec / ref.reqPerSec;
    const cpuRatio = !ref
      ? undefined
      : sameRound
        ? median(perRound(key, refKey, 'reqPerServerCpuSec'))
        : r.reqPerServerCpuSec && ref.reqPerServerCpuSec ? r.reqPerServerCpuSec / ref.reqPerServerCpuSec : undefined;
    const ok = valid(r) && (!ref || valid(ref));
    const verdict = !ok ? 'FAIL (invalid run)' : target === undefined ? '-' : ratio >= target ? 'PASS' : 'FAIL';
    rows.push({
      scenario,
      short,
      connections: r.connections,
      reqPerSec: r.reqPerSec,
      p50Ms: r.latencyMs.p50,
      p99Ms: r.latencyMs.p99,
      ratioToCeiling: ratio,
      ratioAgainst: ref ? (sameRound ? `${refKey} (median of per-round ratios)` : refKey) : undefined,
      roundRatios,
      target: target === undefined ? undefined : `>= ${Math.round(target * 100)}% of ${against}`,
      result: verdict,
      reqPerServerCpuSec: r.reqPerServerCpuSec,
      ratioPerCpuSec: cpuRatio,
      serverCpuPct: r.serverCpuPct,
      clientCpuPct: r.clientCpuPct,
      bytesPerReq: r.bytesPerReq,
      requestsTotal: r.requestsTotal,
      non200: r.non200,
      errors: r.errors,
      timeouts: r.timeouts,
      mismatches: r.mismatches,
      statuses: r.statuses,
      latencyMs: r.latencyMs,
      warmup: r.warmup,
      roundsReqPerSec: r.rounds,
    });
  };
  for (const c of CONNECTIONS) {
    row('ceiling tools/call (canned)', `ceiling call x${c}`, `ceiling.call.${c}`);
    row('mcp tools/call echo', `mcp call x${c}`, `mcp.call.${c}`, `ceiling.call.${c}`, TARGETS.call);
    row('mcp tools/call echo (auth)', `auth call x${c}`, `auth.call.${c}`, `mcp.call.${c}`, TARGETS.auth, 'mcp');
  }
  row(`ceiling list (${TOOL_COUNT} tools, res.json)`, 'ceiling list', 'ceiling.list');
  row(`mcp tools/list (${TOOL_COUNT} tools)`, 'mcp list', 'mcp.list', 'ceiling.list', TARGETS.list);
  const idleVerdict = idle.liveSessionsAfter - idle.liveSessionsBefore !== idle.sessions ? 'FAIL (invalid run)' : idle.addedMB < TARGETS.idleMB ? 'PASS' : 'FAIL';

  const header = ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'target', 'result', 'non-200/err', 'srv cpu', 'req/cpu-s', 'cpu ratio'];
  const table = rows.map((r) => [
    r.scenario,
    String(r.connections),
    Math.round(r.reqPerSec).toString(),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    r.ratioToCeiling === undefined ? '(ref)' : `${(r.ratioToCeiling * 100).toFixed(0)}%`,
    r.target === undefined ? '-' : `>= ${r.target.split(' ')[1]} ${r.target.split(' ')[3]}`,
    r.result,
    `${r.non200}/${r.errors + r.timeouts + r.mismatches}`,
    fmtPct(r.serverCpuPct),
    r.reqPerServerCpuSec === undefined ? '?' : Math.round(r.reqPerServerCpuSec).toString(),
    r.ratioPerCpuSec === undefined ? (r.ratioToCeiling === undefined ? '(ref)' : '?') : `${(r.ratioPerCpuSec * 100).toFixed(0)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 || i === 6 || i === 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(fmt(t));
  console.log('ratio = req/s against the ceiling (the target); cpu ratio = requests per server CPU-second against the ceiling\n' +
    '(cross-check that holds when other processes share the cores; srv cpu well under 100% means the server was not the limit).\n' +
    '(auth) rows: ratio and cpu ratio against the unauthenticated mcp tools/call of the same connection count, taken round by\n' +
    'round (measured back to back) and the median of those reported.');
  if (ROUNDS > 1) {
    console.log(`median of ${ROUNDS} rounds; per-round req/s: ${rows.map((r) => `${r.short} [${r.roundsReqPerSec.join(', ')}]`).join('; ')}`);
    console.log(`per-round auth/mcp ratios: ${rows.filter((r) => r.roundRatios).map((r) => `${r.short} [${r.roundRatios.map((x) => (x === undefined ? '?' : `${Math.round(x * 100)}%`)).join(', ')}]`).join('; ')}`);
  }
  console.log(
    `\nidle sessions: ${idle.sessions.toLocaleString('en-US')} sessions -> +${idle.addedMB.toFixed(1)} MB heapUsed ` +
      `(${idle.bytesPerSession} B/session; heap ${idle.heapUsedBeforeMB.toFixed(1)} -> ${idle.heapUsedAfterMB.toFixed(1)} MB, ` +
      `rss +${idle.rssAddedMB.toFixed(1)} MB), target < ${TARGETS.idleMB} MB: ${idleVerdict}`,
  );
  const loadAfter = loadavg();
  console.log(`\nload average (1 min) before/after: ${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} (the bench itself adds about 2)`);
  const failed = rows.filter((r) => r.result.startsWith('FAIL')).length + (idleVerdict.startsWith('FAIL') ? 1 : 0);
  console.log(failed ? `\n*** ${failed} target(s) FAILED ***` : '\nall targets PASS');

  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'libs', 'apps'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        git: { commit: git, libsOrAppsDirty: dirty },
        node: process.version,
        machine: { cpu: cpus()[0]?.model, cores: cpus().length, memoryGB: +(totalmem() / 2 ** 30).toFixed(1), pinned: PIN, busyPctBefore: busyBefore, loadavgBefore: loadBefore, loadavgAfter: loadAfter },
        settings: { durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS, tools: TOOL_COUNT, protocolVersion: PROTOCOL, cpuProfile: CPU_PROF },
        targets: TARGETS,
        auth: { issuer: AUTH_ISSUER, audience: AUTH_AUDIENCE, algorithm: 'RS256', jwksFetches: issuer.fetches(), check: authCheck },
        scenarios: rows,
        idleSessions: { ...idle, targetMB: TARGETS.idleMB, result: idleVerdict },
        failed,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)}`);
}

main().catch((error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

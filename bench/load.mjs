// One load measurement, run by run.mjs in its own process (pinned to core 1 with taskset).
// Input: one JSON argument. Output: one JSON line on stdout with the measured run (warm-up discarded).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { isEchoAnswer, parseAnswer } from './lib/answers.mjs';

const cfg = JSON.parse(process.argv[2]);
// A body too large for a command-line argument (the abuse scenario's deep _meta, 200 KB) comes from a file.
if (cfg.bodyFile) cfg.body = readFileSync(cfg.bodyFile, 'utf8');
// cfg: { url, path, connections, duration, warmup, body, headers, sessions, verify, rate }
// rate: a fixed overall request rate (req/s) instead of as fast as possible; verify 'any': every answer counts.
// verify 'limiter' (the limiter scenario): a fixed overall rate (cfg.rate req/s), and HTTP 429 with a JSON-RPC
// -32003 (error.data.retryAfter) is an expected answer, not a failure; any other status, or any other JSON-RPC
// error, still is. Each 429's Retry-After header is checked as it arrives.
// verify 'peer-call' (the peer frameworks, bench/lib/peers.mjs): the echo call's answer as JSON or as the one message
// of an SSE stream (some answer every POST with text/event-stream), parsed and checked; our own scenarios keep the
// strict checks below (JSON, no SSE).
const LIMITER = cfg.verify === 'limiter';
const limiter = {
  ok: 0,
  limited: 0,
  retryAfterMissing: 0,
  retryAfterMin: undefined,
  retryAfterMax: undefined,
  badBodies: 0,
  firstLimitedAtMs: undefined,
};
let limiterT0;

function limiterBody(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return false;
  }
  if (msg?.jsonrpc !== '2.0') return false;
  if (msg.error)
    return msg.error.code === -32003 && Number.isInteger(msg.error.data?.retryAfter) && msg.error.data.retryAfter >= 1;
  return msg.result?.content?.[0]?.text === 'hello' && msg.result.isError !== true;
}

function onHeaders({ statusCode, headers }) {
  if (statusCode === 200) limiter.ok++;
  if (statusCode !== 429) return;
  limiter.limited++;
  limiter.firstLimitedAtMs ??= performance.now() - limiterT0;
  let value;
  for (let i = 0; i < (headers ?? []).length; i += 2)
    if (String(headers[i]).toLowerCase() === 'retry-after') value = Number(headers[i + 1]);
  if (!Number.isInteger(value) || value < 1) return void limiter.retryAfterMissing++;
  limiter.retryAfterMin = Math.min(limiter.retryAfterMin ?? value, value);
  limiter.retryAfterMax = Math.max(limiter.retryAfterMax ?? value, value);
}

// Each connection is one MCP client with its own session; ids are unique per request ([<id>]).
function options(duration) {
  let next = 0;
  return {
    url: cfg.url + cfg.path,
    // GET (the abuse scenario's replay flood) sends no body.
    method: cfg.method ?? 'POST',
    connections: cfg.connections,
    duration,
    timeout: 10,
    headers: cfg.headers,
    ...(cfg.method === 'GET' ? {} : { body: cfg.body, idReplacement: true }),
    ...(cfg.rate ? { overallRate: cfg.rate } : {}),
    setupClient: (client) => {
      const session = cfg.sessions[next++ % cfg.sessions.length];
      // A 2026-07-28 scenario has no sessions: no Mcp-Session-Id at all.
      client.setHeaders(session ? { ...cfg.headers, 'mcp-session-id': session } : cfg.headers);
      if (LIMITER) client.on('headers', onHeaders);
    },
    // Every answer must be a JSON-RPC success: no `error` member, no `isError: true` tool result.
    // (Limiter scenario: or the -32003 of a 429.)
    verifyBody: (body) => {
      const text = typeof body === 'string' ? body : String(body);
      if (LIMITER) return limiterBody(text) || (limiter.badBodies++, false);
      // The abuse scenario's floods: refusals are what they are after; only the statuses are counted.
      if (cfg.verify === 'any') return true;
      if (cfg.verify === 'peer-call') return isEchoAnswer(parseAnswer(text));
      if (!text.startsWith('{"jsonrpc":"2.0"') || !text.includes('"result":')) return false;
      if (text.includes('"isError":true')) return false;
      if (cfg.verify === 'list' && !text.includes('"tools":[')) return false;
      return !/"error":\{"code":/.test(text);
    },
  };
}

function summary(r) {
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const non200 = Object.entries(statuses).reduce((n, [code, count]) => n + (code === '200' ? 0 : count), 0);
  return {
    connections: cfg.connections,
    durationS: r.duration,
    requestsTotal: r.requests.total,
    reqPerSec: r.requests.average,
    reqPerSecStddev: r.requests.stddev,
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
      mean: r.latency.average,
    },
    bytesPerReq: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    statuses,
    non200,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
  };
}

// No warm-up in the limiter scenario: it would spend the budget being measured.
const warm =
  cfg.warmup > 0
    ? summary(await autocannon(options(cfg.warmup)))
    : { requestsTotal: 0, non200: 0, errors: 0, mismatches: 0 };
// Tell run.mjs the measured phase starts (it samples the server's CPU time now and at our exit).
process.stdout.write('PHASE measure\n');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
limiterT0 = t0;
const measured = summary(await autocannon(options(cfg.duration)));
const cpu = process.cpuUsage(cpu0);
// Share of one core the load generator used: near 100% means the client, not the server, is the limit.
measured.clientCpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100;
if (LIMITER) {
  measured.limiter = limiter;
  measured.elapsedS = (performance.now() - t0) / 1000;
}
measured.warmup = {
  requestsTotal: warm.requestsTotal,
  non200: warm.non200,
  errors: warm.errors,
  mismatches: warm.mismatches,
};
process.stdout.write(JSON.stringify(measured) + '\n');

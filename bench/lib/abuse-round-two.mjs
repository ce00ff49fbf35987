// The abuse scenario, round two (issue #24): the attacks of the second attack run, each while a normal caller calls a
// tool at a fixed rate. For each attack it reports the normal caller's p99 alone and during the attack (target: at
// most 3x), the answers the attack got, and the server's RSS before and after:
//   replay    GET with Last-Event-ID of a finished ~1 MB stream, in a loop (replayed bytes are budgeted)
//   unknown   requests with made-up method names (counted against the request budget like any other)
//   deep      tools/list whose _meta nests an array 100,000 levels deep (refused by a scan before parsing), 250/s
//   listen    one token opens 2,000 subscriptions/listen streams in 6 s (capped per caller); another caller gets one
//   redis     on a server with MCP_STORE=redis: ten calls with a 900 KB progress token (refused), then 100 calls of
//             a ~1 MB streamed answer from one token; Redis's used_memory growth (the event log's bound per caller)
// Floods run at ATTACK_RATE. The p99 ratio is judged here (the issue's target), though on this 2-core machine the
// attack's load generator shares the normal caller's core: read a FAIL with that in mind.
import { BASE_HEADERS, CALL_BODY, MODERN_HEADERS, openSession, post } from './mcp-client.mjs';
import { cpuSeconds, rssMB, runChild, startServer } from './servers.mjs';
import Redis from 'ioredis';
import { dropRedisPrefix } from './redis.mjs';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ABUSE, AUTH_AUDIENCE, AUTH_ISSUER, LOAD, TMP } from './settings.mjs';

const r1 = (v) => (v === undefined ? undefined : Math.round(v * 10) / 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const P99_TARGET = 3;
/**
 * Requests per second of each flood: twenty times the whole request budget of one token (3,000 a minute), far above
 * the rates of the attack run (replays at ~15/s, deep bodies at a fifth of the budget). As fast as possible, a flood
 * saturates this machine's one server core whatever it costs per request (round one measures that).
 */
const ATTACK_RATE = 1_000;
/** The normal caller's rate: 1,600 calls in 8 s, so that its p99 is not four samples. */
const NORMAL_RATE = 200;
/** The deep-_meta flood: five times a token's request budget rate, 50 MB/s of bodies. */
const DEEP_RATE = 250;
/** The listen hog opens its streams 50 at a time, one batch every LISTEN_PACE_MS (2,000 in about 6 s). */
const LISTEN_PACE_MS = 150;
const LISTEN_ATTEMPTS = 2_000;

const MODERN_META =
  '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"abuse","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}';
const LISTEN_BODY = `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},${MODERN_META}}}`;
const UNKNOWN_BODY = '{"jsonrpc":"2.0","id":"[<id>]","method":"made/up/method","params":{}}';
const DEEP_BODY = `{"jsonrpc":"2.0","id":"[<id>]","method":"tools/list","params":{"_meta":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
const REPORT_BODY =
  '{"jsonrpc":"2.0","id":"report","method":"tools/call","params":{"name":"stream_report","arguments":{},"_meta":{"progressToken":"p"}}}';

/** One load.mjs run on core 1. */
function load(label, cfg) {
  return runChild(1, [LOAD, JSON.stringify({ path: '/mcp', warmup: 0, body: CALL_BODY('[<id>]'), ...cfg })], label);
}

/** Opens a listen stream and keeps it; resolves with its status and a close function. */
async function openListen(url, bearer) {
  const abort = new AbortController();
  try {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      signal: abort.signal,
      headers: { ...MODERN_HEADERS, 'mcp-method': 'subscriptions/listen', 'mcp-name': undefined, ...bearer },
      body: LISTEN_BODY,
    });
    if (res.status !== 200) await res.text();
    else
      res.body
        .getReader()
        .read()
        .catch(() => undefined);
    return { status: res.status, close: () => abort.abort() };
  } catch {
    return { status: 'error', close: () => undefined };
  }
}

const REPORT_WITH_TOKEN = (id, token) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"stream_report","arguments":{},"_meta":{"progressToken":"${token}"}}}`;

/** Redis's used_memory in MB. */
async function redisUsedMB(redis) {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))[1]) / 1e6;
}

/** The High finding on Redis: progress tokens and long streamed answers against the event log's bounds. */
async function redisEventLog(issuer) {
  const prefix = `bench-abuse2-${process.pid}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const server = await startServer('mcp-abuse-redis', 'mcp', {
    NODE_ENV: 'production',
    BENCH_AUTH: 'on',
    BENCH_LIMITS: 'default',
    BENCH_ABUSE_TOOLS: 'on',
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: prefix,
    MCP_JWKS_URI: issuer.jwksUri,
    MCP_JWT_ISSUER: AUTH_ISSUER,
    MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
  });
  try {
    const bearer = { authorization: `Bearer ${await issuer.mint('abuser-redis')}` };
    const headers = { ...BASE_HEADERS, ...bearer, 'mcp-session-id': await openSession(server.url, bearer) };
    const before = await redisUsedMB(redis);
    const huge = 't'.repeat(900_000);
    const tokenStatuses = {};
    for (let i = 0; i < 10; i++) {
      const r = await post(`${server.url}/mcp`, REPORT_WITH_TOKEN(`h${i}`, huge), headers);
      const code = JSON.parse(r.text).error?.code ?? 'result';
      tokenStatuses[code] = (tokenStatuses[code] ?? 0) + 1;
    }
    const afterTokens = await redisUsedMB(redis);
    let next = 0;
    const worker = async () => {
      while (next < 100) await post(`${server.url}/mcp`, REPORT_WITH_TOKEN(`s${next++}`, 'p'.repeat(256)), headers);
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await sleep(500);
    const afterStreams = await redisUsedMB(redis);
    return {
      hugeTokenAnswers: tokenStatuses,
      usedMemoryGrowthAfterTokensMB: r1(afterTokens - before),
      streamedCalls: 100,
      streamedMB: 100,
      usedMemoryGrowthAfterStreamsMB: r1(afterStreams - before),
    };
  } finally {
    await server.stop();
    await dropRedisPrefix(prefix);
    redis.disconnect();
  }
}

/** Runs the four attacks against one server (default limits, auth on) and returns the `roundTwo` block. */
export async function runAbuseRoundTwo(issuer) {
  const server = await startServer('mcp-abuse-2', 'mcp', {
    NODE_ENV: 'production',
    BENCH_AUTH: 'on',
    BENCH_LIMITS: 'default',
    BENCH_ABUSE_TOOLS: 'on',
    // The module's defaults but the call budget (600 a minute per token), which the normal caller's 1,600 calls per
    // run would exceed: the attacks are about the request budget, streams and bytes, which keep their defaults.
    MCP_RATE_LIMIT_PER_MINUTE: '100000',
    MCP_JWKS_URI: issuer.jwksUri,
    MCP_JWT_ISSUER: AUTH_ISSUER,
    MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
  });
  let normalCount = 0;
  const bearerOf = async (sub) => ({ authorization: `Bearer ${await issuer.mint(sub)}` });
  /** The normal caller, a new subject each run (its request budget is 3,000 a minute). */
  const normal = async (label) => {
    const bearer = await bearerOf(`normal-2-${normalCount++}`);
    const sessions = [];
    for (let i = 0; i < ABUSE.normalConnections; i++) sessions.push(await openSession(server.url, bearer));
    return load(label, {
      url: server.url,
      duration: ABUSE.durationS,
      connections: ABUSE.normalConnections,
      rate: NORMAL_RATE,
      headers: { ...BASE_HEADERS, ...bearer },
      sessions,
    });
  };
  const flood = (label, cfg) =>
    load(label, {
      url: server.url,
      duration: ABUSE.durationS,
      connections: ABUSE.floodConnections,
      rate: ATTACK_RATE,
      verify: 'any',
      ...cfg,
    });
  try {
    const attacks = {};
    // Each attack is compared with the normal caller alone just before it: the server's state drifts between attacks
    // (heap size, RSS), and a baseline from the start would judge the attack for it.
    const measure = async (name, attack) => {
      const before = await normal(`normal caller before ${name}`);
      const rssBefore = rssMB(server.child.pid);
      const [during, result] = await Promise.all([normal(`normal caller during ${name}`), attack()]);
      await sleep(300);
      attacks[name] = {
        ...result,
        normalAloneP99: before.latencyMs.p99,
        normalP99: during.latencyMs.p99,
        normalNon200: during.non200,
        p99Ratio: r1(during.latencyMs.p99 / Math.max(1, before.latencyMs.p99)),
        rssBeforeMB: r1(rssBefore),
        rssAfterMB: r1(rssMB(server.child.pid)),
      };
    };

    // --- replay flood ------------------------------------------------------------------------------------
    const replayer = await bearerOf('abuser-replay');
    const replaySession = await openSession(server.url, replayer);
    const report = await post(`${server.url}/mcp`, REPORT_BODY, {
      ...BASE_HEADERS,
      ...replayer,
      'mcp-session-id': replaySession,
    });
    const firstId = [...report.text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]).find((id) => !id.endsWith('_0'));
    if (!firstId) throw new Error(`abuse round two: stream_report did not stream (${report.status})`);
    await measure('replay', async () => {
      const r = await flood('replay flood', {
        method: 'GET',
        headers: {
          ...replayer,
          accept: 'text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': firstId,
        },
        sessions: [replaySession],
      });
      return {
        streamBytes: report.text.length,
        statuses: r.statuses,
        replayedMB: r1(((r.statuses['200'] ?? 0) * report.text.length) / 1e6),
      };
    });

    // --- unknown-method flood -------------------------------------------------------------------------------
    const unknown = await bearerOf('abuser-unknown');
    const unknownSession = await openSession(server.url, unknown);
    await measure('unknown', async () => {
      const r = await flood('unknown-method flood', {
        body: UNKNOWN_BODY,
        headers: { ...BASE_HEADERS, ...unknown },
        sessions: [unknownSession],
      });
      return { statuses: r.statuses, refused: r.statuses['429'] ?? 0 };
    });

    // --- deep _meta flood -----------------------------------------------------------------------------------
    const deep = await bearerOf('abuser-deep');
    const deepSession = await openSession(server.url, deep);
    /** A flood of one body at DEEP_RATE; its answers and the server's CPU milliseconds per request. */
    const bodyFlood = async (label, text, bearer, session) => {
      const bodyFile = resolve(TMP, `${label.replace(/\W+/g, '-')}.json`);
      writeFileSync(bodyFile, text);
      const cpu0 = cpuSeconds(server.child.pid);
      // 200 KB each: at the flood rate the reading alone (200 MB/s) would fill the server's core, as any body would.
      const r = await flood(label, {
        body: undefined,
        bodyFile,
        rate: DEEP_RATE,
        headers: { ...BASE_HEADERS, ...bearer },
        sessions: [session],
      });
      const cpuMsPerRequest = ((cpuSeconds(server.child.pid) - cpu0) * 1000) / Math.max(1, r.requestsTotal);
      return { r, cpuMsPerRequest };
    };
    await measure('deep', async () => {
      const { r, cpuMsPerRequest } = await bodyFlood('deep _meta flood', DEEP_BODY, deep, deepSession);
      return {
        bodyBytes: DEEP_BODY.length,
        statuses: r.statuses,
        requestsPerSec: r1(r.requestsTotal / ABUSE.durationS),
        // Includes the normal caller's calls made meanwhile (a few hundredths of a millisecond per flood request).
        serverCpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000,
      };
    });
    // The same size without the nesting, as a well-formed body a caller within budget may send: what reading any
    // 200 KB body costs. Nesting must not cost more (before the fix, parsing and walking it stalled the loop).
    const flat = await bearerOf('abuser-flat');
    const flatSession = await openSession(server.url, flat);
    const flatBody = DEEP_BODY.slice(0, DEEP_BODY.indexOf('"x":') + 4) + JSON.stringify('a'.repeat(200_000)) + '}}}';
    await measure('flat', async () => {
      const { r, cpuMsPerRequest } = await bodyFlood('flat body flood', flatBody, flat, flatSession);
      return { statuses: r.statuses, serverCpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000 };
    });

    // --- listen-stream hog ----------------------------------------------------------------------------------
    const hogger = await bearerOf('abuser-listen');
    const held = [];
    await measure('listen', async () => {
      const statuses = {};
      for (let i = 0; i < LISTEN_ATTEMPTS; i += 50) {
        const paced = sleep(LISTEN_PACE_MS);
        const batch = await Promise.all(Array.from({ length: 50 }, () => openListen(server.url, hogger)));
        await paced;
        for (const b of batch) {
          statuses[b.status] = (statuses[b.status] ?? 0) + 1;
          held.push(b);
        }
      }
      const other = await openListen(server.url, await bearerOf('listen-bystander'));
      other.close();
      return { attempts: LISTEN_ATTEMPTS, statuses, bystanderStatus: other.status };
    });
    for (const h of held) h.close();
    await server.stop();
    const redisLog = await redisEventLog(issuer);

    const within = (a) => a.p99Ratio <= P99_TARGET && a.normalNon200 === 0;
    const checks = {
      replayBounded: (attacks.replay.statuses['429'] ?? 0) > 0 && within(attacks.replay) ? 'PASS' : 'FAIL',
      unknownMethodsBudgeted: attacks.unknown.refused > 0 && within(attacks.unknown) ? 'PASS' : 'FAIL',
      // Judged by cost: a deep body may cost the server no more than a flat body of its size, each beside the same
      // normal caller, within 10% (the p99 during a 50 MB/s body flood is reported: it is what reading any body
      // costs, not the nesting).
      deepMetaRefused:
        (attacks.deep.statuses['400'] ?? 0) + (attacks.deep.statuses['429'] ?? 0) > 0 &&
        !attacks.deep.statuses['200'] &&
        attacks.deep.normalNon200 === 0 &&
        attacks.deep.serverCpuMsPerRequest <= attacks.flat.serverCpuMsPerRequest * 1.1
          ? 'PASS'
          : 'FAIL',
      listenHogCapped:
        (attacks.listen.statuses['429'] ?? 0) > 0 && attacks.listen.bystanderStatus === 200 && within(attacks.listen)
          ? 'PASS'
          : 'FAIL',
      // Nothing of a refused token is stored; a caller's streamed answers stop being kept at its 32 MiB bound.
      redisEventLogBounded:
        redisLog.hugeTokenAnswers['-32602'] === 10 &&
        redisLog.usedMemoryGrowthAfterTokensMB < 5 &&
        redisLog.usedMemoryGrowthAfterStreamsMB < 48
          ? 'PASS'
          : 'FAIL',
    };
    return {
      p99Target: P99_TARGET,
      attacks,
      redisEventLog: redisLog,
      checks,
      failed: Object.values(checks).filter((v) => v === 'FAIL').length,
    };
  } finally {
    await server.stop();
  }
}

/** The printed lines of round two. */
export function printAbuseRoundTwo(t) {
  const a = t.attacks;
  const line = (name, what) =>
    `  ${name}: ${what}; normal p99 ${a[name].normalAloneP99} -> ${a[name].normalP99} ms (x${a[name].p99Ratio}), ` +
    `non-200 ${a[name].normalNon200}; RSS ${a[name].rssBeforeMB} -> ${a[name].rssAfterMB} MB`;
  console.log(
    `abuse, round two (normal caller p99 target: at most x${t.p99Target} during each attack):\n` +
      `${line('replay', `${a.replay.streamBytes} B stream replayed, answers ${JSON.stringify(a.replay.statuses)} (${a.replay.replayedMB} MB sent)`)}\n` +
      `${line('unknown', `made-up methods, answers ${JSON.stringify(a.unknown.statuses)}`)}\n` +
      `${line('deep', `${a.deep.bodyBytes} B, 100,000 levels, answers ${JSON.stringify(a.deep.statuses)}, server ${a.deep.serverCpuMsPerRequest} ms CPU each`)}\n` +
      `${line('flat', `the same size, not nested: answers ${JSON.stringify(a.flat.statuses)}, server ${a.flat.serverCpuMsPerRequest} ms CPU each`)}\n` +
      `${line('listen', `${a.listen.attempts} listen streams from one token: ${JSON.stringify(a.listen.statuses)}, another caller ${a.listen.bystanderStatus}`)}\n` +
      `  redis: 10 calls with a 900 KB progress token answered ${JSON.stringify(t.redisEventLog.hugeTokenAnswers)}, ` +
      `used_memory +${t.redisEventLog.usedMemoryGrowthAfterTokensMB} MB; then ${t.redisEventLog.streamedCalls} streamed ` +
      `answers of ~1 MB from one token: +${t.redisEventLog.usedMemoryGrowthAfterStreamsMB} MB in all\n` +
      Object.entries(t.checks)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join('\n'),
  );
}

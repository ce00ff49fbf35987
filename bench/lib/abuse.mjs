// The abuse scenario: one server with the module's default limits, authentication on and the production logs
// written to a file, attacked the ways the attack run of issue #11 did. It reports, in one run:
//   sessions  one token calls initialize in a loop (32 at a time): how many were refused past the cap, and the
//             server's RSS before and after;
//   batch     the answer size of a maximal 2025-03-26 batch of tools/list, and what an oversized batch gets;
//   flood     a normal caller's p99 at a fixed rate, alone and while a 401 flood (no token) and a 429 flood (a token
//             over its budget) run, and the log bytes written per refused request during the flood.
// Judged: the session cap holds, the batch answer stays within its bound, every flood answer is a refusal (no 5xx),
// and refusals log less than LOG_BYTES_PER_REFUSAL bytes each. The p99 ratio is reported, not judged: on this
// 2-core machine the floods' load generators share the normal caller's core.
import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BASE_HEADERS, CALL_BODY, openSession, post } from './mcp-client.mjs';
import { rssMB, runChild, startServer } from './servers.mjs';
import { ABUSE, AUTH_AUDIENCE, AUTH_ISSUER, LOAD, RESULTS, ROOT, TMP } from './settings.mjs';
import { printAbuseRoundTwo, runAbuseRoundTwo } from './abuse-round-two.mjs';
import { printAbuseRoundThree, runAbuseRoundThree } from './abuse-round-three.mjs';

const r1 = (v) => (v === undefined ? undefined : Math.round(v * 10) / 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const INIT = (version) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'abuse', version: '1' } },
  });

/** initialize in a loop, `parallel` at a time, `attempts` in all; counts the answers by status. */
async function sessionFlood(url, bearer, attempts, parallel) {
  const statuses = {};
  let next = 0;
  const worker = async () => {
    while (next < attempts) {
      next++;
      const res = await post(`${url}/mcp`, INIT('2025-11-25'), { ...BASE_HEADERS, ...bearer });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

/** A 2025-03-26 session (the revision with batches); returns its headers. */
async function batchSession(url, bearer) {
  const headers = { ...BASE_HEADERS, ...bearer, 'mcp-protocol-version': '2025-03-26' };
  const init = await post(`${url}/mcp`, INIT('2025-03-26'), headers);
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`abuse: 2025-03-26 initialize answered ${init.status}: ${init.text}`);
  await post(`${url}/mcp`, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
    ...headers,
    'mcp-session-id': id,
  });
  return { ...headers, 'mcp-session-id': id };
}

const batchOf = (n) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));

/** One load.mjs run on core 1 (the normal caller or a flood). */
function load(label, cfg) {
  return runChild(1, [LOAD, JSON.stringify({ path: '/mcp', warmup: 0, body: CALL_BODY('[<id>]'), ...cfg })], label);
}

const fileBytes = (file) => (existsSync(file) ? statSync(file).size : 0);

/** Runs the scenario (server start to stop) and returns the `abuse` results block. */
export async function runAbuse(issuer) {
  const logFile = resolve(TMP, 'abuse.log');
  writeFileSync(logFile, '');
  const server = await startServer('mcp-abuse', 'mcp', {
    NODE_ENV: 'production',
    BENCH_AUTH: 'on',
    BENCH_LIMITS: 'default',
    BENCH_LOG_FILE: logFile,
    MCP_JWKS_URI: issuer.jwksUri,
    MCP_JWT_ISSUER: AUTH_ISSUER,
    MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
    MCP_REFUSAL_LOG_INTERVAL_MS: String(ABUSE.refusalIntervalMs),
  });
  const bearerOf = async (sub) => ({ authorization: `Bearer ${await issuer.mint(sub)}` });
  let roundOne;
  try {
    // --- sessions ------------------------------------------------------------------------------------
    const rssBefore = rssMB(server.child.pid);
    const sessionStatuses = await sessionFlood(
      server.url,
      await bearerOf('abuser-sessions'),
      ABUSE.initializeAttempts,
      32,
    );
    await sleep(500);
    const rssAfter = rssMB(server.child.pid);
    const sessions = {
      attempts: ABUSE.initializeAttempts,
      opened: sessionStatuses[200] ?? 0,
      refused: (sessionStatuses[429] ?? 0) + (sessionStatuses[503] ?? 0),
      statuses: sessionStatuses,
      rssBeforeMB: r1(rssBefore),
      rssAfterMB: r1(rssAfter),
    };

    // --- batches -------------------------------------------------------------------------------------
    const batchHeaders = await batchSession(server.url, await bearerOf('abuser-batch'));
    const maximalBody = batchOf(ABUSE.maxBatchSize);
    const maximal = await post(`${server.url}/mcp`, maximalBody, batchHeaders);
    const oversizedBody = batchOf(10_000);
    const oversized = await post(`${server.url}/mcp`, oversizedBody, batchHeaders);
    const answers = maximal.status === 200 ? JSON.parse(maximal.text) : [];
    const batch = {
      messages: ABUSE.maxBatchSize,
      requestBytes: Buffer.byteLength(maximalBody),
      answerBytes: Buffer.byteLength(maximal.text),
      answered: answers.length,
      fullResults: answers.filter((a) => a.result).length,
      amplification: r1(Buffer.byteLength(maximal.text) / Buffer.byteLength(maximalBody)),
      oversized: {
        messages: 10_000,
        requestBytes: Buffer.byteLength(oversizedBody),
        status: oversized.status,
        answerBytes: Buffer.byteLength(oversized.text),
      },
    };

    // --- a normal caller alone, then during the floods ------------------------------------------------
    const normal = async (sub) => {
      const bearer = await bearerOf(sub);
      const sessions = [];
      for (let i = 0; i < ABUSE.normalConnections; i++) sessions.push(await openSession(server.url, bearer));
      return { headers: { ...BASE_HEADERS, ...bearer }, sessions };
    };
    const common = { url: server.url, duration: ABUSE.durationS, connections: ABUSE.normalConnections };
    const alone = await load('normal caller alone', {
      ...common,
      rate: ABUSE.normalRate,
      ...(await normal('normal-a')),
    });

    const attacker = await bearerOf('abuser-flood');
    const attackerSessions = [await openSession(server.url, attacker)];
    const logBefore = fileBytes(logFile);
    const [during, flood401, flood429] = await Promise.all([
      load('normal caller during floods', { ...common, rate: ABUSE.normalRate, ...(await normal('normal-b')) }),
      load('401 flood', {
        url: server.url,
        duration: ABUSE.durationS,
        connections: ABUSE.floodConnections,
        headers: BASE_HEADERS,
        sessions: ['none'],
        verify: 'any',
      }),
      load('429 flood', {
        url: server.url,
        duration: ABUSE.durationS,
        connections: ABUSE.floodConnections,
        headers: { ...BASE_HEADERS, ...attacker },
        sessions: attackerSessions,
        verify: 'any',
      }),
    ]);
    // Let the aggregated count lines of the interval and pino's asynchronous writes land.
    await sleep(ABUSE.refusalIntervalMs + 1_000);
    const logBytes = fileBytes(logFile) - logBefore;
    const refused = (flood401.statuses['401'] ?? 0) + (flood429.statuses['429'] ?? 0);
    const floodOther =
      Object.entries({ ...flood401.statuses })
        .filter(([c]) => c !== '401')
        .reduce((n, [, v]) => n + v, 0) +
      Object.entries({ ...flood429.statuses })
        .filter(([c]) => c !== '429' && c !== '200')
        .reduce((n, [, v]) => n + v, 0);
    const flood = {
      durationS: ABUSE.durationS,
      normalRate: ABUSE.normalRate,
      refused401: flood401.statuses['401'] ?? 0,
      refused429: flood429.statuses['429'] ?? 0,
      allowedToAttacker: flood429.statuses['200'] ?? 0,
      otherFloodAnswers: floodOther,
      floodRatePerSec: r1((flood401.requestsTotal + flood429.requestsTotal) / ABUSE.durationS),
      normalAlone: {
        p50: alone.latencyMs.p50,
        p99: alone.latencyMs.p99,
        requests: alone.requestsTotal,
        non200: alone.non200,
      },
      normalDuring: {
        p50: during.latencyMs.p50,
        p99: during.latencyMs.p99,
        requests: during.requestsTotal,
        non200: during.non200,
      },
      p99Ratio: r1(during.latencyMs.p99 / Math.max(1, alone.latencyMs.p99)),
      logBytes,
      logBytesPerRefusal: refused ? r1(logBytes / refused) : undefined,
      rssAfterFloodMB: r1(rssMB(server.child.pid)),
    };

    const checks = {
      sessionCapHolds: sessions.opened <= ABUSE.maxSessionsPerSubject && sessions.refused > 0 ? 'PASS' : 'FAIL',
      batchAnswerBounded:
        batch.answered === ABUSE.maxBatchSize &&
        batch.answerBytes <= ABUSE.maxBatchResponseBytes &&
        oversized.status === 400
          ? 'PASS'
          : 'FAIL',
      floodsOnlyRefused: flood.otherFloodAnswers === 0 && refused > 0 ? 'PASS' : 'FAIL',
      normalCallerServed: during.non200 === 0 && during.requestsTotal > 0 ? 'PASS' : 'FAIL',
      logBytesPerRefusal:
        flood.logBytesPerRefusal !== undefined && flood.logBytesPerRefusal < ABUSE.logBytesPerRefusal ? 'PASS' : 'FAIL',
    };
    roundOne = { sessions, batch, flood, checks };
  } finally {
    await server.stop();
  }
  // Round two (issue #24) on a server of its own: replays, unknown methods, deep _meta, listen streams.
  const roundTwo = await runAbuseRoundTwo(issuer);
  // Round three (issue #36): tasks cancelled while they wait for answers, and tasks against the Redis's memory.
  const roundThree = await runAbuseRoundThree(issuer);
  return {
    date: new Date().toISOString(),
    settings: ABUSE,
    ...roundOne,
    roundTwo,
    roundThree,
    failed:
      Object.values(roundOne.checks).filter((v) => v.startsWith('FAIL')).length + roundTwo.failed + roundThree.failed,
  };
}

/** The printed result of the scenario. */
export function printAbuse(a) {
  const { sessions: s, batch: b, flood: f } = a;
  console.log(
    `\nabuse (default limits, auth on, logs to a file):\n` +
      `  sessions: ${s.attempts} initialize from one token, 32 at a time: opened ${s.opened}, refused ${s.refused} ` +
      `(${JSON.stringify(s.statuses)}); server RSS ${s.rssBeforeMB} -> ${s.rssAfterMB} MB\n` +
      `  batch: ${b.messages} tools/list (${b.requestBytes} B) answered with ${b.answerBytes} B (x${b.amplification}, ` +
      `${b.fullResults} full results); a 10,000-message batch (${b.oversized.requestBytes} B): ${b.oversized.status}, ${b.oversized.answerBytes} B\n` +
      `  flood: ${f.floodRatePerSec} req/s refused (401: ${f.refused401}, 429: ${f.refused429}; other answers ${f.otherFloodAnswers}) for ${f.durationS} s; ` +
      `normal caller at ${f.normalRate} req/s p99 ${f.normalAlone.p99} ms alone, ${f.normalDuring.p99} ms during (x${f.p99Ratio}), ` +
      `non-200 ${f.normalDuring.non200}\n` +
      `  log: ${f.logBytes} B for ${f.refused401 + f.refused429} refusals = ${f.logBytesPerRefusal} B per refused request; RSS after ${f.rssAfterFloodMB} MB\n` +
      Object.entries(a.checks)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join('\n'),
  );
  if (a.roundTwo) printAbuseRoundTwo(a.roundTwo);
  if (a.roundThree) printAbuseRoundThree(a.roundThree);
}

/** BENCH_ONLY=abuse: puts the block into the existing results file, adjusting its `failed` count. */
export function mergeAbuse(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const failed = (prev.failed ?? 0) - (prev.abuse?.failed ?? 0) + block.failed;
  writeFileSync(RESULTS, JSON.stringify({ ...prev, abuse: block, failed }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (abuse block merged)`);
}

// The abuse scenario, round two (issue #24): the attacks of the second attack run, each while a normal caller calls a
// tool at a fixed rate. For each attack it reports the normal caller's p99 alone and during the attack (target: at
// most 3x), the answers the attack got, and the server's RSS before and after:
//   replay    GET with Last-Event-ID of a finished ~1 MB stream, in a loop (replayed bytes are budgeted)
//   unknown   requests with made-up method names (counted against the request budget like any other)
//   deep      tools/list whose _meta nests an array 100,000 levels deep (refused by a scan before parsing)
//   listen    one token opens 2,000 subscriptions/listen streams (capped per caller); another caller still gets one
// The p99 ratio is judged here (the issue's target), though on this 2-core machine the attack's load generator
// shares the normal caller's core: read a FAIL with that in mind.
import { BASE_HEADERS, CALL_BODY, MODERN_HEADERS, openSession, post } from './mcp-client.mjs';
import { rssMB, runChild, startServer } from './servers.mjs';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ABUSE, AUTH_AUDIENCE, AUTH_ISSUER, LOAD, TMP } from './settings.mjs';

const r1 = (v) => (v === undefined ? undefined : Math.round(v * 10) / 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const P99_TARGET = 3;
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

/** Runs the four attacks against one server (default limits, auth on) and returns the `roundTwo` block. */
export async function runAbuseRoundTwo(issuer) {
  const server = await startServer('mcp-abuse-2', 'mcp', {
    NODE_ENV: 'production',
    BENCH_AUTH: 'on',
    BENCH_LIMITS: 'default',
    BENCH_ABUSE_TOOLS: 'on',
    MCP_JWKS_URI: issuer.jwksUri,
    MCP_JWT_ISSUER: AUTH_ISSUER,
    MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
  });
  let normalCount = 0;
  const bearerOf = async (sub) => ({ authorization: `Bearer ${await issuer.mint(sub)}` });
  /** The normal caller, a new subject each run (its call budget is 600 a minute). */
  const normal = async (label) => {
    const bearer = await bearerOf(`normal-2-${normalCount++}`);
    const sessions = [];
    for (let i = 0; i < ABUSE.normalConnections; i++) sessions.push(await openSession(server.url, bearer));
    return load(label, {
      url: server.url,
      duration: ABUSE.durationS,
      connections: ABUSE.normalConnections,
      rate: ABUSE.normalRate,
      headers: { ...BASE_HEADERS, ...bearer },
      sessions,
    });
  };
  const flood = (label, cfg) =>
    load(label, {
      url: server.url,
      duration: ABUSE.durationS,
      connections: ABUSE.floodConnections,
      verify: 'any',
      ...cfg,
    });
  try {
    const alone = await normal('normal caller alone (round two)');
    const attacks = {};
    const measure = async (name, attack) => {
      const rssBefore = rssMB(server.child.pid);
      const [during, result] = await Promise.all([normal(`normal caller during ${name}`), attack()]);
      await sleep(300);
      attacks[name] = {
        ...result,
        normalP99: during.latencyMs.p99,
        normalNon200: during.non200,
        p99Ratio: r1(during.latencyMs.p99 / Math.max(1, alone.latencyMs.p99)),
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
    await measure('deep', async () => {
      const bodyFile = resolve(TMP, 'deep-meta.json');
      writeFileSync(bodyFile, DEEP_BODY);
      const r = await flood('deep _meta flood', {
        body: undefined,
        bodyFile,
        headers: { ...BASE_HEADERS, ...deep },
        sessions: [deepSession],
      });
      return {
        bodyBytes: DEEP_BODY.length,
        statuses: r.statuses,
        requestsPerSec: r1(r.requestsTotal / ABUSE.durationS),
      };
    });

    // --- listen-stream hog ----------------------------------------------------------------------------------
    const hogger = await bearerOf('abuser-listen');
    const held = [];
    await measure('listen', async () => {
      const statuses = {};
      for (let i = 0; i < LISTEN_ATTEMPTS; i += 50) {
        const batch = await Promise.all(Array.from({ length: 50 }, () => openListen(server.url, hogger)));
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

    const within = (a) => a.p99Ratio <= P99_TARGET && a.normalNon200 === 0;
    const checks = {
      replayBounded: (attacks.replay.statuses['429'] ?? 0) > 0 && within(attacks.replay) ? 'PASS' : 'FAIL',
      unknownMethodsBudgeted: attacks.unknown.refused > 0 && within(attacks.unknown) ? 'PASS' : 'FAIL',
      deepMetaRefused:
        (attacks.deep.statuses['400'] ?? 0) + (attacks.deep.statuses['429'] ?? 0) > 0 &&
        !attacks.deep.statuses['200'] &&
        within(attacks.deep)
          ? 'PASS'
          : 'FAIL',
      listenHogCapped:
        (attacks.listen.statuses['429'] ?? 0) > 0 && attacks.listen.bystanderStatus === 200 && within(attacks.listen)
          ? 'PASS'
          : 'FAIL',
    };
    return {
      normalAloneP99: alone.latencyMs.p99,
      p99Target: P99_TARGET,
      attacks,
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
    `  ${name}: ${what}; normal p99 ${t.normalAloneP99} -> ${a[name].normalP99} ms (x${a[name].p99Ratio}), ` +
    `non-200 ${a[name].normalNon200}; RSS ${a[name].rssBeforeMB} -> ${a[name].rssAfterMB} MB`;
  console.log(
    `abuse, round two (normal caller p99 target: at most x${t.p99Target} during each attack):\n` +
      `${line('replay', `${a.replay.streamBytes} B stream replayed, answers ${JSON.stringify(a.replay.statuses)} (${a.replay.replayedMB} MB sent)`)}\n` +
      `${line('unknown', `made-up methods, answers ${JSON.stringify(a.unknown.statuses)}`)}\n` +
      `${line('deep', `${a.deep.bodyBytes} B, 100,000 levels, answers ${JSON.stringify(a.deep.statuses)}`)}\n` +
      `${line('listen', `${a.listen.attempts} listen streams from one token: ${JSON.stringify(a.listen.statuses)}, another caller ${a.listen.bystanderStatus}`)}\n` +
      Object.entries(t.checks)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join('\n'),
  );
}

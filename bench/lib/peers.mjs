// The peers (issue #14, "Beside the peers"): the published MCP frameworks a team would otherwise pick, each serving
// our 50 tools (bench/peers/catalog.ts) in its documented default setup, as its own process pinned to core 0 like
// our servers. Each is checked before it is measured: tools/list gives the same 50 tools as ours (names,
// descriptions and input schemas; every page followed), and tools/call of `echo` answers 'hello' without `isError`.
// Measured: tools/call at each connection count, next to the ceiling and our production configuration of the same
// round, with p50/p99 and the peer's RSS after its load. A peer that fails to start, its check or its load is
// reported as failed with the reason; it is never dropped, and never stops the bench.
//
// run.mjs starts them (startPeers), adds their scenarios to its plan (peerScenarios) and reports peersBlock();
// BENCH_ONLY=peers (runPeersOnly) measures the ceiling, our production configuration and the peers alone and merges
// the `peers` block into bench/results/latest.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { isEchoAnswer, parseAnswer } from './answers.mjs';
import { startIssuer } from './issuer.mjs';
import {
  BASE_HEADERS,
  CALL_BODY,
  LIST_BODY,
  MODERN_CALL_BODY,
  MODERN_HEADERS,
  newId,
  openSession,
  post,
} from './mcp-client.mjs';
import { startOtlpSink } from './otlp-sink.mjs';
import { runPlan } from './plan.mjs';
import { summarise, valid } from './report.mjs';
import { startCeiling, startPinned, startServer } from './servers.mjs';
import {
  CONNECTIONS,
  DURATION,
  PEERS_DIR,
  RESULTS,
  ROOT,
  ROUNDS,
  TARGETS,
  TMP,
  TOOL_COUNT,
  WARMUP,
  productionEnv,
} from './settings.mjs';

/**
 * The peers, in the order measured. `packages`: what the peer's server is built on (versions read from node_modules
 * and reported); `era`: the protocol revision its load speaks (each one's own default); `stateful`: sessions, so
 * every load connection gets its own session (initialize + notifications/initialized).
 */
export const PEERS = [
  {
    name: 'sdk-v1',
    label: 'official SDK 1.x, stateful',
    packages: ['@modelcontextprotocol/sdk'],
    era: '2025-11-25',
    stateful: true,
    setup:
      'McpServer + StreamableHTTPServerTransport per session (sessionIdGenerator: randomUUID), createMcpExpressApp(), SSE answers',
  },
  {
    name: 'sdk-v2',
    label: 'official SDK v2, createMcpHandler',
    packages: ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
    era: '2026-07-28',
    stateful: false,
    setup:
      'createMcpHandler(factory), a fresh McpServer per request, toNodeHandler on node:http behind the localhost Host/Origin guards, JSON answers',
  },
  {
    name: 'mcp-nest',
    label: '@rekog/mcp-nest',
    packages: [
      '@rekog/mcp-nest',
      '@nestjs/microservices',
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/node',
    ],
    era: '2025-11-25',
    stateful: false,
    setup:
      'McpStrategy with the default StreamableHttpTransport() (stateless, JSON answers) in a Nest 12 app on Express',
  },
  {
    name: 'fastmcp',
    label: 'fastmcp, httpStream',
    packages: ['fastmcp', '@modelcontextprotocol/sdk'],
    era: '2025-11-25',
    stateful: true,
    setup: 'start({ transportType: "httpStream" }): stateful sessions, SSE answers',
  },
];

// The requests of each era: the load's call and headers (the same bodies as ours), and tools/list for the check.
const MODERN_META = JSON.parse(MODERN_CALL_BODY('check')).params._meta;
const { 'mcp-name': _name, ...MODERN_LIST_HEADERS } = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
const REQUESTS = {
  '2025-11-25': {
    call: CALL_BODY,
    headers: BASE_HEADERS,
    list: (id, cursor) =>
      cursor === undefined
        ? LIST_BODY(id)
        : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { cursor } }),
    listHeaders: BASE_HEADERS,
  },
  '2026-07-28': {
    call: MODERN_CALL_BODY,
    headers: MODERN_HEADERS,
    list: (id, cursor) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        params: { ...(cursor && { cursor }), _meta: MODERN_META },
      }),
    listHeaders: MODERN_LIST_HEADERS,
  },
};

/** The installed version of `pkg` as `from` resolves it (its own node_modules first), or undefined. */
function installedVersion(pkg, from) {
  const files = [
    from && resolve(ROOT, 'node_modules', from, 'node_modules', pkg, 'package.json'),
    resolve(ROOT, 'node_modules', pkg, 'package.json'),
  ];
  const file = files.find((f) => f && existsSync(f));
  return file ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

/** `promise`, or a rejection naming `what` after `ms` (a peer that never answers must not hang the bench). */
function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A JSON Schema as canonical text: keys sorted, the top-level `$schema` (dialect) left out. */
function canonical(schema) {
  const sort = (v) =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort(v[k])]),
          )
        : v;
  const { $schema: _dialect, ...rest } = schema ?? {};
  return JSON.stringify(sort(rest));
}

/** Throws unless `tools` are ours: the same names, declared descriptions and input schemas. */
function compareTools(tools, reference) {
  const theirs = new Map(tools.map((t) => [t.name, t]));
  const missing = reference.filter((t) => !theirs.has(t.name)).map((t) => t.name);
  const ours = new Set(reference.map((t) => t.name));
  const extra = tools.filter((t) => !ours.has(t.name)).map((t) => t.name);
  if (tools.length !== TOOL_COUNT || missing.length || extra.length)
    throw new Error(
      `tools/list: ${tools.length} tools (expected our ${TOOL_COUNT})${missing.length ? `, missing ${missing.slice(0, 3).join(', ')}` : ''}${extra.length ? `, extra ${extra.slice(0, 3).join(', ')}` : ''}`,
    );
  for (const t of reference) {
    const peer = theirs.get(t.name);
    // Ours appends a paragraph on the annotations ("Read-only: no side effects.") to the declared description.
    if (peer.description !== t.description && !t.description.startsWith(`${peer.description}\n\n`))
      throw new Error(`tools/list: ${t.name} has another description: ${JSON.stringify(peer.description)}`);
    if (canonical(peer.inputSchema) !== canonical(t.inputSchema))
      throw new Error(
        `tools/list: ${t.name} has another input schema: ${canonical(peer.inputSchema)} (ours ${canonical(t.inputSchema)})`,
      );
  }
}

/** The check before measuring: our 50 tools listed (following nextCursor), and the echo call answered. */
async function checkPeer(peer, reference) {
  const url = `${peer.server.url}/mcp`;
  const req = REQUESTS[peer.era];
  const session = peer.stateful ? await openSession(peer.server.url) : undefined;
  const withSession = (headers) => (session ? { ...headers, 'mcp-session-id': session } : headers);
  const tools = [];
  let pages = 0;
  let cursor;
  do {
    const list = await post(url, req.list(newId(), cursor), withSession(req.listHeaders));
    const result = parseAnswer(list.text)?.result;
    if (list.status !== 200 || !Array.isArray(result?.tools))
      throw new Error(`tools/list answered ${list.status}: ${list.text.slice(0, 200)}`);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 20);
  compareTools(tools, reference);
  const call = await post(url, req.call(newId()), withSession(req.headers));
  if (call.status !== 200 || !isEchoAnswer(parseAnswer(call.text)))
    throw new Error(`tools/call of echo answered ${call.status}: ${call.text.slice(0, 200)}`);
  const sse = (call.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return { tools: tools.length, pages, schemasMatch: true, echo: 'hello', answers: sse ? 'SSE' : 'JSON' };
}

async function startPeer(def, reference) {
  const [main] = def.packages;
  const versions = Object.fromEntries(
    def.packages.map((p) => [p, installedVersion(p, p === main ? undefined : main) ?? 'not installed']),
  );
  const peer = { ...def, versions, status: 'failed' };
  try {
    const missing = def.packages.filter((p) => versions[p] === 'not installed');
    if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (npm ci)`);
    const script = resolve(PEERS_DIR, `${def.name}.js`);
    if (!existsSync(script)) throw new Error(`${script} is missing (npm run bench builds bench/peers/)`);
    peer.server = await startPinned(`peer ${def.name}`, [script], { NODE_ENV: 'production' });
    peer.check = await within(checkPeer(peer, reference), 30_000, 'the check');
    // A session per load connection for the stateful ones, 16 opened at a time (fastmcp takes about 1 s to answer
    // an initialize: it polls for the client's capabilities before serving the request that brings them); none (no
    // Mcp-Session-Id) for the others.
    peer.sessionIds = def.stateful ? [] : [undefined];
    while (def.stateful && peer.sessionIds.length < Math.max(...CONNECTIONS)) {
      const batch = Promise.all(Array.from({ length: 16 }, () => openSession(peer.server.url)));
      peer.sessionIds.push(...(await within(batch, 30_000, 'opening sessions')));
    }
    peer.status = 'ok';
  } catch (error) {
    peer.reason = error.message.trim().split('\n').slice(0, 3).join(' ').slice(0, 400);
    await peer.server?.stop();
    peer.server = undefined;
  }
  return peer;
}

/**
 * Starts every peer and checks it against `reference` (our tools/list result's tools); prints one line a peer.
 * Resolves with them all, failed ones included (status 'failed', reason).
 */
export async function startPeers(reference) {
  const peers = [];
  // One after another: their boots (and the checks) share core 0.
  for (const def of PEERS) peers.push(await startPeer(def, reference));
  for (const p of peers) {
    const v = p.versions[p.packages[0]];
    console.log(
      p.status === 'ok'
        ? `peer ${p.name} (${p.packages[0]} ${v}): ${p.check.tools} tools in ${p.check.pages} page(s), names, descriptions and input schemas as ours; echo answered 'hello' (${p.check.answers})`
        : `peer ${p.name} (${p.packages[0]} ${v}): FAILED, ${p.reason}`,
    );
  }
  return peers;
}

export const stopPeers = (peers) => Promise.all(peers.map((p) => p.server?.stop()));

/** The plan entries of the peers that passed their check, at `c` connections (after the ceiling's of the same c). */
export function peerScenarios(peers, c) {
  return peers
    .filter((p) => p.status === 'ok')
    .map((p) => ({
      key: `peer.${p.name}.call.${c}`,
      label: `peer ${p.name} tools/call x${c}`,
      server: p.server,
      path: '/mcp',
      c,
      body: REQUESTS[p.era].call,
      sessions: p.sessionIds,
      verify: 'peer-call',
      headers: REQUESTS[p.era].headers,
      ref: `ceiling.call.${c}`,
      peer: p,
    }));
}

/** One scenario's figures for the block (`r` a summarised run), against the ceiling run `ceiling`. */
function figures(r, ceiling) {
  if (!r) return undefined;
  return {
    reqPerSec: Math.round(r.reqPerSec),
    ratioToCeiling: ceiling ? +(r.reqPerSec / ceiling.reqPerSec).toFixed(3) : undefined,
    p50Ms: r.latencyMs.p50,
    p99Ms: r.latencyMs.p99,
    rssMB: r.rssMB === undefined ? undefined : +r.rssMB.toFixed(1),
    serverCpuPct: r.serverCpuPct === undefined ? undefined : Math.round(r.serverCpuPct),
    reqPerServerCpuSec: r.reqPerServerCpuSec === undefined ? undefined : Math.round(r.reqPerServerCpuSec),
    valid: valid(r),
    non200: r.non200,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    roundsReqPerSec: r.rounds,
  };
}

/**
 * The `peers` block of the results: every peer with its status and figures per connection count, the ceiling's and
 * our production configuration's figures of the same run, and the two targets against the peers (TARGETS.peerCall,
 * TARGETS.peerP99). `measured` is summarise(runs). A peer with an invalid load run (non-200, errors, wrong answers)
 * is reported as failed, its figures kept, and left out of "fastest" and "best".
 */
export function peersBlock(peers, measured) {
  const per = (key, vsCeiling = true) =>
    Object.fromEntries(
      CONNECTIONS.map((c) => [
        c,
        figures(measured[key(c)], vsCeiling ? measured[`ceiling.call.${c}`] : undefined),
      ]).filter(([, f]) => f),
    );
  const frameworks = peers.map((p) => {
    const call = per((c) => `peer.${p.name}.call.${c}`);
    const invalid = Object.entries(call).filter(([, f]) => !f.valid);
    const failedUnderLoad = p.status === 'ok' && invalid.length > 0;
    return {
      name: p.name,
      label: p.label,
      versions: p.versions,
      protocolVersion: p.era,
      stateful: p.stateful,
      setup: p.setup,
      status: failedUnderLoad ? 'failed' : p.status,
      reason: failedUnderLoad
        ? `invalid answers under load: ${invalid.map(([c, f]) => `x${c} non-200 ${f.non200}, errors ${f.errors}, timeouts ${f.timeouts}, mismatches ${f.mismatches}`).join('; ')}`
        : p.reason,
      check: p.check,
      call,
    };
  });
  const ok = frameworks.filter((f) => f.status === 'ok');
  const [low, high] = [Math.min(...CONNECTIONS), Math.max(...CONNECTIONS)];
  const fastest = ok.filter((f) => f.call[low]).sort((a, b) => b.call[low].reqPerSec - a.call[low].reqPerSec)[0];
  const best = ok.filter((f) => f.call[high]).sort((a, b) => a.call[high].p99Ms - b.call[high].p99Ms)[0];
  const ours = per((c) => `prod.call.${c}`);
  // Ours against one peer on one figure at `c` connections, and the verdict of `pass(ratio)`.
  const versus = (c, peer, metric, target, pass) => {
    const [o, p] = [ours[c], peer?.call[c]];
    const ratio = o && p && p[metric] > 0 ? +(o[metric] / p[metric]).toFixed(2) : undefined;
    const result = !o
      ? 'FAIL (not measured)'
      : !o.valid
        ? 'FAIL (invalid run)'
        : !peer
          ? 'FAIL (no valid peer)'
          : ratio === undefined
            ? 'FAIL (no figure)'
            : pass(ratio)
              ? 'PASS'
              : 'FAIL';
    return {
      connections: c,
      peer: peer?.name,
      metric,
      peerValue: p?.[metric],
      oursValue: o?.[metric],
      ratio,
      target,
      result,
    };
  };
  const vsFastest = versus(low, fastest, 'reqPerSec', `>= ${TARGETS.peerCall}x`, (r) => r >= TARGETS.peerCall);
  const p99VsBest = versus(high, best, 'p99Ms', `<= ${TARGETS.peerP99}`, (r) => r <= TARGETS.peerP99);
  return {
    request: 'tools/call of echo {text: "hello"}, each peer in the protocol revision of its default setup',
    ceiling: per((c) => `ceiling.call.${c}`, false),
    ours: { scenario: 'prod.call (production configuration)', call: ours },
    frameworks,
    prodVsFastestPeer: vsFastest,
    prodP99VsBestPeer: p99VsBest,
    failed: [vsFastest, p99VsBest].filter((t) => t.result.startsWith('FAIL')).length,
  };
}

/**
 * BENCH_ONLY=peers: the ceiling, our production configuration and the peers, interleaved per connection count for
 * BENCH_ROUNDS rounds; resolves with the `peers` block (print it with report.mjs's printPeers, merge with mergePeers).
 */
export async function runPeersOnly() {
  mkdirSync(TMP, { recursive: true });
  const issuer = await startIssuer();
  const sink = await startOtlpSink();
  const prodLog = resolve(TMP, 'peers-prod.log');
  writeFileSync(prodLog, '');
  let prod;
  let ceiling;
  let peers = [];
  try {
    prod = await startServer(
      'mcp-prod',
      'mcp',
      productionEnv({ jwksUri: issuer.jwksUri, logFile: prodLog, otlpUrl: sink.url }),
    );
    const bearer = { authorization: `Bearer ${issuer.token}` };
    const headers = { ...BASE_HEADERS, ...bearer };
    const sessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) sessions.push(await openSession(prod.url, bearer));
    // Our answers, captured as run.mjs does, for the ceiling's canned bodies; our tools/list is the peers' reference.
    const call = await post(`${prod.url}/mcp`, CALL_BODY(newId()), { ...headers, 'mcp-session-id': sessions[0] });
    const list = await post(`${prod.url}/mcp`, LIST_BODY(newId()), { ...headers, 'mcp-session-id': sessions[0] });
    const tools = JSON.parse(list.text).result?.tools;
    if (call.status !== 200 || !isEchoAnswer(JSON.parse(call.text)))
      throw new Error(`tools/call check failed: ${call.status} ${call.text}`);
    if (list.status !== 200 || tools?.length !== TOOL_COUNT)
      throw new Error(`tools/list check failed: ${list.status}, ${tools?.length} tools`);
    ceiling = await startCeiling(call.text, list.text);
    peers = await startPeers(tools);
    const fake = Array.from({ length: sessions.length }, () => randomUUID());
    const plan = CONNECTIONS.flatMap((c) => [
      {
        key: `ceiling.call.${c}`,
        label: `ceiling tools/call x${c}`,
        server: ceiling,
        path: '/mcp',
        c,
        body: CALL_BODY,
        sessions: fake,
        verify: 'call',
      },
      {
        key: `prod.call.${c}`,
        label: `mcp tools/call (production) x${c}`,
        server: prod,
        path: '/mcp',
        c,
        body: CALL_BODY,
        sessions,
        verify: 'call',
        headers,
        ref: `ceiling.call.${c}`,
      },
      ...peerScenarios(peers, c),
    ]);
    const runs = await runPlan(plan);
    return peersBlock(peers, summarise(runs));
  } finally {
    await Promise.all([prod?.stop(), ceiling?.stop(), stopPeers(peers)]);
    await sink.stop();
    await issuer.stop();
  }
}

/** Merges a `peers` block into the existing results file (the other numbers there stay as they were). */
export function mergePeers(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const failed = (prev.failed ?? 0) - (prev.peers?.failed ?? 0) + block.failed;
  const settings = { date: new Date().toISOString(), durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS };
  writeFileSync(
    RESULTS,
    JSON.stringify({ ...prev, peers: { ...block, measuredAlone: settings }, failed }, null, 2) + '\n',
  );
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (peers block merged)`);
}

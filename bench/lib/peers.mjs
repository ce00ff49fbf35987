// The peers (issue #14, "Beside the peers"): the published MCP frameworks a team would otherwise pick, each serving
// our 50 tools (bench/peers/catalog.ts) in its documented default setup, as its own process pinned to core 0 like
// our servers. Each is checked before it is measured: tools/list gives the same 50 tools as ours (names,
// descriptions and input schemas; every page followed), and tools/call of `echo` answers 'hello' without `isError`.
// Measured: tools/call at each connection count, next to the ceiling and our production configuration of the same
// round, with p50/p99 and the peer's RSS after its load. A peer that fails to start, its check or its load is
// reported as failed with the reason; it is never dropped, and never stops the bench.
//
// run.mjs starts them (startPeers), adds their scenarios to its plan (peerScenarios) and reports peersBlock()
// (peers-block.mjs); the check before measuring is peer-check.mjs;
// BENCH_ONLY=peers (runPeersOnly) measures the ceiling, our production configuration and the peers alone and merges
// the `peers` block into bench/results/latest.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { isEchoAnswer } from './answers.mjs';
import { startIssuer } from './issuer.mjs';
import { BASE_HEADERS, CALL_BODY, LIST_BODY, newId, openSession, post } from './mcp-client.mjs';
import { startOtlpSink } from './otlp-sink.mjs';
import { REQUESTS, checkPeer, within } from './peer-check.mjs';
import { peersBlock } from './peers-block.mjs';
import { ceilingCall, runPlan } from './plan.mjs';
import { summarise } from './report.mjs';
import { startCeiling, startPinned, startServer } from './servers.mjs';
import {
  CONNECTIONS,
  DURATION,
  PEERS_DIR,
  RESULTS,
  ROOT,
  ROUNDS,
  TMP,
  TOOL_COUNT,
  WARMUP,
  productionEnv,
} from './settings.mjs';

export { peersBlock };

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

/** The installed version of `pkg` as `from` resolves it (its own node_modules first), or undefined. */
function installedVersion(pkg, from) {
  const files = [
    from && resolve(ROOT, 'node_modules', from, 'node_modules', pkg, 'package.json'),
    resolve(ROOT, 'node_modules', pkg, 'package.json'),
  ];
  const file = files.find((f) => f && existsSync(f));
  return file ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
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
      ceilingCall(ceiling, c, fake),
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

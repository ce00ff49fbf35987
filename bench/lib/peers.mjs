// The peers (issue #14, "Beside the peers"): the published MCP frameworks a team would otherwise pick, each serving
// our 50 tools (bench/peers/catalog.ts) in its documented default setup, as its own process pinned to core 0 like
// our servers. Each is checked before it is measured: tools/list gives the same 50 tools as ours (names,
// descriptions and input schemas; every page followed), and tools/call of `echo` answers 'hello' without `isError`.
// Measured: tools/call at each connection count, next to the ceiling and our production configuration of the same
// round, with p50/p99 and the peer's RSS after its load. A peer that fails to start, its check or its load is
// reported as failed with the reason; it is never dropped, and never stops the bench. One of them, `sdk-v1-prod`
// (#27), is the official SDK 1.x equipped for production as a team would equip it (Bearer JWTs, request logs to a
// file, OpenTelemetry traces to the bench's sink): it is judged against our production configuration, never counted
// among the bare peers.
//
// run.mjs starts them (startPeers), adds their scenarios to its plan (peerScenarios) and reports peersBlock()
// (peers-block.mjs); the check before measuring is peer-check.mjs; BENCH_ONLY=peers is peers-only.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openSession } from './mcp-client.mjs';
import { REQUESTS, checkPeer, within } from './peer-check.mjs';
import { peersBlock } from './peers-block.mjs';
import { startPinned } from './servers.mjs';
import { AUTH_AUDIENCE, AUTH_ISSUER, CONNECTIONS, PEERS_DIR, ROOT, TMP } from './settings.mjs';

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
    name: 'sdk-v1-prod',
    label: 'official SDK 1.x, stateful, equipped for production',
    packages: [
      '@modelcontextprotocol/sdk',
      'jose',
      'pino-http',
      '@opentelemetry/sdk-node',
      '@opentelemetry/instrumentation-http',
      '@opentelemetry/instrumentation-express',
    ],
    era: '2025-11-25',
    stateful: true,
    // What a team adds to meet the bar our production configuration meets (#27): Bearer JWTs, logs, traces.
    production: true,
    setup:
      'sdk-v1 behind requireBearerAuth with a jose JWKS verifier, pino-http logging every request to a file, the OpenTelemetry Node SDK with the http and express instrumentations exporting OTLP/HTTP to the sink',
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

/**
 * The environment and headers of a peer equipped for production (`def.production`): the bench's JWKS issuer and its
 * token, a log file of its own, the OTLP sink; nothing for the others.
 */
function productionSetup(def, context) {
  if (!def.production) return { env: {}, auth: {} };
  if (!context?.issuer || !context.sink) throw new Error('needs the bench issuer and OTLP sink');
  const logFile = resolve(TMP, `peer-${def.name}.log`);
  writeFileSync(logFile, '');
  return {
    env: {
      PEER_JWKS_URI: context.issuer.jwksUri,
      PEER_JWT_ISSUER: AUTH_ISSUER,
      PEER_JWT_AUDIENCE: AUTH_AUDIENCE,
      PEER_LOG_FILE: logFile,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: context.sink.url,
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    },
    auth: { authorization: `Bearer ${context.issuer.token}` },
    logFile,
  };
}

async function startPeer(def, reference, context) {
  const [main] = def.packages;
  const versions = Object.fromEntries(
    def.packages.map((p) => [p, installedVersion(p, p === main ? undefined : main) ?? 'not installed']),
  );
  const peer = { ...def, versions, status: 'failed', auth: {} };
  try {
    const setup = productionSetup(def, context);
    peer.auth = setup.auth;
    peer.logFile = setup.logFile;
    const missing = def.packages.filter((p) => versions[p] === 'not installed');
    if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (npm ci)`);
    const script = resolve(PEERS_DIR, `${def.name}.js`);
    if (!existsSync(script)) throw new Error(`${script} is missing (npm run bench builds bench/peers/)`);
    peer.server = await startPinned(`peer ${def.name}`, [script], { NODE_ENV: 'production', ...setup.env });
    peer.check = await within(checkPeer(peer, reference), 30_000, 'the check');
    // A session per load connection for the stateful ones, 16 opened at a time (fastmcp takes about 1 s to answer
    // an initialize: it polls for the client's capabilities before serving the request that brings them); none (no
    // Mcp-Session-Id) for the others.
    peer.sessionIds = def.stateful ? [] : [undefined];
    while (def.stateful && peer.sessionIds.length < Math.max(...CONNECTIONS)) {
      const batch = Promise.all(Array.from({ length: 16 }, () => openSession(peer.server.url, peer.auth)));
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
export async function startPeers(reference, context) {
  const peers = [];
  // One after another: their boots (and the checks) share core 0.
  for (const def of PEERS) peers.push(await startPeer(def, reference, context));
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
      headers: { ...REQUESTS[p.era].headers, ...p.auth },
      ref: `ceiling.call.${c}`,
      peer: p,
    }));
}

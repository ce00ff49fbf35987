// BENCH_ONLY=peers (bench/lib/only.mjs): the ceiling, our bare server, our production configuration and the peer
// frameworks alone, on both HTTP adapters, so that every target of the `adapters` block is judged in one run; the
// `peers` block (and its `adapters` block) merged into bench/results/latest.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { isEchoAnswer } from './answers.mjs';
import { startIssuer } from './issuer.mjs';
import { BASE_HEADERS, CALL_BODY, LIST_BODY, newId, openSession, post } from './mcp-client.mjs';
import { startOtlpSink } from './otlp-sink.mjs';
import { peersBlock } from './peers-block.mjs';
import { peerScenarios, startPeers, stopPeers } from './peers.mjs';
import { fastifyListScenarios, fastifyScenarios, startFastifyServers, stopFastifyServers } from './adapters.mjs';
import { adaptersBlock } from './adapters-block.mjs';
import { callScenario, ceilingCall, listScenario, runPlan } from './plan.mjs';
import { summarise } from './report.mjs';
import { startCeiling, startServer } from './servers.mjs';
import { CONNECTIONS, DURATION, RESULTS, ROOT, ROUNDS, TMP, TOOL_COUNT, WARMUP, productionEnv } from './settings.mjs';

/**
 * BENCH_ONLY=peers: the ceiling, our bare server, our production configuration and the peers, interleaved per
 * connection count for BENCH_ROUNDS rounds, with the Fastify ceiling and our servers on Fastify beside them;
 * resolves with the `peers` block and its `adapters` block (print them with printPeers and printAdapters, merge with
 * mergePeers).
 */
export async function runPeersOnly() {
  mkdirSync(TMP, { recursive: true });
  const issuer = await startIssuer();
  const sink = await startOtlpSink();
  const prodLog = resolve(TMP, 'peers-prod.log');
  writeFileSync(prodLog, '');
  let prod;
  let bare;
  let ceiling;
  let fastify;
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
    bare = await startServer('mcp', 'mcp', { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' });
    const bareSessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) bareSessions.push(await openSession(bare.url));
    // Our answers, captured as run.mjs does, for the ceiling's canned bodies; our tools/list is the peers' reference.
    const call = await post(`${prod.url}/mcp`, CALL_BODY(newId()), { ...headers, 'mcp-session-id': sessions[0] });
    const list = await post(`${prod.url}/mcp`, LIST_BODY(newId()), { ...headers, 'mcp-session-id': sessions[0] });
    const tools = JSON.parse(list.text).result?.tools;
    if (call.status !== 200 || !isEchoAnswer(JSON.parse(call.text)))
      throw new Error(`tools/call check failed: ${call.status} ${call.text}`);
    if (list.status !== 200 || tools?.length !== TOOL_COUNT)
      throw new Error(`tools/list check failed: ${list.status}, ${tools?.length} tools`);
    ceiling = await startCeiling(call.text, list.text);
    fastify = await startFastifyServers({
      callText: call.text,
      listText: list.text,
      jwksUri: issuer.jwksUri,
      otlpUrl: sink.url,
      bearer,
    });
    peers = await startPeers(tools, { issuer, sink });
    const fake = Array.from({ length: sessions.length }, () => randomUUID());
    const plan = CONNECTIONS.flatMap((c) => [
      ceilingCall(ceiling, c, fake),
      fastifyScenarios(fastify, c, fake, headers).ceiling,
      callScenario('mcp', 'mcp tools/call', bare, c, { sessions: bareSessions, ref: `ceiling.call.${c}` }),
      fastifyScenarios(fastify, c, fake, headers).bare,
      callScenario('prod', 'mcp tools/call (production)', prod, c, { sessions, headers, ref: `ceiling.call.${c}` }),
      fastifyScenarios(fastify, c, fake, headers).prod,
      ...peerScenarios(peers, c),
    ]);
    // tools/list of every tool in production against each adapter's ceiling (its `res.json` of the same list).
    plan.push(
      listScenario('ceiling', `ceiling list(${TOOL_COUNT})`, ceiling, { sessions: fake, path: '/mcp-list' }),
      listScenario('prod', `mcp tools/list(${TOOL_COUNT}) (production)`, prod, {
        sessions,
        headers,
        ref: 'ceiling.list',
      }),
      ...fastifyListScenarios(fastify, fake, headers),
    );
    const measured = summarise(await runPlan(plan));
    const block = peersBlock(peers, measured);
    return { ...block, adapters: adaptersBlock(measured, block) };
  } finally {
    await Promise.all([prod?.stop(), bare?.stop(), ceiling?.stop(), stopPeers(peers), stopFastifyServers(fastify)]);
    await sink.stop();
    await issuer.stop();
  }
}

/** Merges a `peers` block into the existing results file (the other numbers there stay as they were). */
export function mergePeers(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const failedIn = (b) => (b?.failed ?? 0) + (b?.adapters?.failed ?? 0);
  const failed = (prev.failed ?? 0) - failedIn(prev.peers) + failedIn(block);
  const settings = { date: new Date().toISOString(), durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS };
  writeFileSync(
    RESULTS,
    JSON.stringify({ ...prev, peers: { ...block, measuredAlone: settings }, failed }, null, 2) + '\n',
  );
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (peers block merged)`);
}

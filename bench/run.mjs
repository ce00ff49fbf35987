// `npm run bench`: throughput of our MCP server against a bare Nest "ceiling", plus idle-session memory.
// A report, not a test: it always exits 0 unless the bench itself breaks; FAIL lines say what missed.
//
// The npm script builds first (tsc -p bench/tsconfig.json). Servers run pinned to
// core 0, the load generator (autocannon, its own process) to core 1.
//
// Then the limiter scenario (bench/lib/limiter.mjs): a fifth server, `mcp-limiter`, with the module's real
// per-caller limits (BENCH_LIMITS=default, MCP_RATE_LIMIT_PER_MINUTE=1200), alone on core 0, driven at a
// fixed rate; it reports allowed/limited answers, Retry-After, and the server's RSS over the run.
//
// The servers: the ceiling (bare Nest), `mcp` (our module, authentication and log lines off; metrics and
// the call observer on), `mcp-auth` (authentication on, NODE_ENV=production, verifying RS256 JWTs against a JWKS that
// this script serves itself on 127.0.0.1), `mcp-redis`, `mcp-prod` (the production configuration) and
// `mcp-prod-quiet` (the same without its log lines: what the logs cost is prod against it, round by round). Only one
// of them is under load at a time.
//
// Beside them, the peers (bench/lib/peers.mjs): the published MCP frameworks a team would otherwise pick (the
// official SDK 1.x and v2, @rekog/mcp-nest, fastmcp), each serving the same 50 tools in its documented default setup
// (bench/peers/), checked before measuring, and measured under tools/call in the same rounds, right after our
// production configuration at each connection count. A peer that fails is reported as failed.
//
// This file runs the bench in order; bench/lib/ holds its parts: settings.mjs (paths, environment,
// targets), issuer.mjs (the JWKS issuer and tokens), mcp-client.mjs (sessions and checks),
// servers.mjs (pinned child processes, CPU accounting), plan.mjs (the rounds of load runs), peers.mjs
// (the peer frameworks) and report.mjs (table and results JSON).
//
// Environment:
//   BENCH_DURATION   seconds measured per scenario (default 5)
//   BENCH_WARMUP     seconds of discarded warm-up before each (default 1)
//   BENCH_ROUNDS     repeat the whole load plan; the median round per scenario is reported (default 3)
//   BENCH_LIMITER_DURATION / BENCH_LIMITER_RATE  the limiter scenario's own length (default 20 s) and
//                    fixed request rate (default 100 req/s); BENCH_DURATION/WARMUP/ROUNDS do not apply to it
//   BENCH_ONLY=limiter  run only the limiter scenario and merge its `limiter` block into the existing
//                    bench/results/latest.json (the throughput numbers there stay as they were)
//   BENCH_ONLY=abuse    the same for the abuse scenario (bench/lib/abuse.mjs; BENCH_ABUSE_DURATION, default 8 s)
//   BENCH_ONLY=replicas the same for two replicas against one behind nginx (bench/lib/replicas.mjs)
//   BENCH_ONLY=tasks    the same for tasks on the Redis queue (bench/lib/tasks.mjs)
//   BENCH_ONLY=boot     the same for the boot of 50 and 1,000 decorated tools (bench/lib/boot.mjs)
//   BENCH_ONLY=peers    the same for the peers: the ceiling, our production configuration and the peer frameworks
//                    under tools/call (bench/lib/peers.mjs), merged as the `peers` block
//   BENCH_ONLY=redis    the Redis stores against the memory stores, back to back each round (bench/lib/redis-only.mjs),
//                    merged as the `redisAlone` block
//   BENCH_CPU_PROF=1 run both MCP servers with --cpu-prof; profiles land in .bench/prof/<server>/
//                    (summarise with bench/profile-summary.mjs)
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { startIssuer } from './lib/issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { limiterDone, limiterLine, runLimiter } from './lib/limiter.mjs';
import { runAbuse } from './lib/abuse.mjs';
import { dropRedisPrefix, redisBytesPerSession } from './lib/redis.mjs';
import { runReplicas } from './lib/replicas.mjs';
import { runTasks } from './lib/tasks.mjs';
import { runBoot } from './lib/boot.mjs';
import { peersBlock, startPeers, stopPeers } from './lib/peers.mjs';
import { startFastifyServers, stopFastifyServers } from './lib/adapters.mjs';
import { adaptersBlock } from './lib/adapters-block.mjs';
import { runPlan } from './lib/plan.mjs';
import { mainPlan } from './lib/main-plan.mjs';
import { runOnly } from './lib/only.mjs';
import {
  BASE_HEADERS,
  CALL_BODY,
  LIST_BODY,
  MODERN_CALL_BODY,
  MODERN_HEADERS,
  checkAuth,
  newId,
  openSession,
  post,
} from './lib/mcp-client.mjs';
import { report, summarise } from './lib/report.mjs';
import { PIN, machineBusyPct, runChild, startCeiling, startServer } from './lib/servers.mjs';
import {
  AUTH_AUDIENCE,
  AUTH_ISSUER,
  CONNECTIONS,
  DURATION,
  HEAP,
  IDLE,
  LIST_CONNECTIONS,
  NODE_FLAGS,
  ONLY,
  RESULTS,
  ROUNDS,
  SERVE,
  TMP,
  TOOL_COUNT,
  WARMUP,
  productionEnv,
} from './lib/settings.mjs';

async function main() {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run "npm run bench" (it builds the fixture first)`);
  mkdirSync(TMP, { recursive: true });
  mkdirSync(dirname(RESULTS), { recursive: true });
  const loadBefore = loadavg();
  const busyBefore = await machineBusyPct();
  if (busyBefore !== undefined && busyBefore > 15) {
    console.warn(
      `WARNING: the machine is ${Math.round(busyBefore)}% busy before the bench starts; other work will skew the numbers (see "srv cpu" and "cpu ratio").`,
    );
  }
  if (!PIN)
    console.warn('WARNING: taskset not available; servers and load generator are NOT pinned to separate cores.');
  if (ONLY !== undefined) {
    await runOnly(ONLY);
    return;
  }
  console.log(
    `bench: ${DURATION}s measured + ${WARMUP}s warm-up per scenario, ${ROUNDS} round(s); server on core 0, autocannon on core 1; Node ${process.version}\n`,
  );

  // All servers run for the whole bench (an idle server costs nothing), so each MCP scenario is
  // measured right after its ceiling, and the authenticated one right after the unauthenticated one:
  // a noisy neighbour then hits both sides of a ratio alike.
  // The unauthenticated server runs with NODE_ENV=development because the module refuses
  // `auth: { disabled: true }` under NODE_ENV=production (a boot error); Express only changes error
  // verbosity and view caching with it, nothing on this path. The ceiling and mcp-auth stay in production.
  const issuer = await startIssuer();
  // `mcp` measures the stack (metrics, tracing middleware and call observer on, no SDK) without log lines.
  const mcp = await startServer('mcp', 'mcp', { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' });
  // `mcp-redis`: `mcp` with every store in Redis (MCP_STORE=redis, a key prefix of its own, removed afterwards).
  const redisPrefix = `bench:${randomUUID().slice(0, 8)}:`;
  const mcpRedis = await startServer('mcp-redis', 'mcp', {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
    BENCH_LOGS: 'off',
    MCP_STORE: 'redis',
    MCP_REDIS_PREFIX: redisPrefix,
  });
  // `mcp-prod`: the production configuration #14 measures: NODE_ENV=production, Bearer JWT auth, the JSON call and
  // access logs written to a file, metrics, and tracing with the OpenTelemetry SDK exporting OTLP to a local sink.
  const sink = await startOtlpSink();
  const prodLog = resolve(TMP, 'prod.log');
  writeFileSync(prodLog, '');
  let ceiling;
  let mcpAuth;
  let mcpProd;
  let mcpQuiet;
  let authCheck;
  let redisMemory;
  let peers = [];
  let fastify;
  const runs = {};
  let production;
  try {
    const sessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS, LIST_CONNECTIONS); i++) sessions.push(await openSession(mcp.url));
    const headers = { ...BASE_HEADERS, 'mcp-session-id': sessions[0] };
    // Capture one real answer of each (same id length as under load) for the ceiling's canned bodies.
    const call = await post(`${mcp.url}/mcp`, CALL_BODY(newId()), headers);
    const modern = await post(`${mcp.url}/mcp`, MODERN_CALL_BODY(newId()), MODERN_HEADERS);
    if (modern.status !== 200 || JSON.parse(modern.text).result?.resultType !== 'complete')
      throw new Error(`2026-07-28 tools/call check failed: ${modern.status} ${modern.text}`);
    const list = await post(`${mcp.url}/mcp`, LIST_BODY(newId()), headers);
    if (call.status !== 200 || JSON.parse(call.text).result?.content?.[0]?.text !== 'hello')
      throw new Error(`tools/call check failed: ${call.status} ${call.text}`);
    const listed = JSON.parse(list.text).result;
    if (list.status !== 200 || listed?.tools?.length !== TOOL_COUNT || listed.nextCursor !== undefined) {
      throw new Error(
        `tools/list check failed: expected ${TOOL_COUNT} tools on one page, got ${listed?.tools?.length} (status ${list.status})`,
      );
    }
    ceiling = await startCeiling(call.text, list.text);
    const fake = Array.from({ length: sessions.length }, () => randomUUID());

    // The same fixture with authentication on, as in production: JWTs verified against our JWKS.
    mcpAuth = await startServer('mcp-auth', 'mcp', {
      NODE_ENV: 'production',
      BENCH_AUTH: 'on',
      BENCH_LOGS: 'off',
      MCP_JWKS_URI: issuer.jwksUri,
      MCP_JWT_ISSUER: AUTH_ISSUER,
      MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
    });
    mcpProd = await startServer(
      'mcp-prod',
      'mcp',
      productionEnv({ jwksUri: issuer.jwksUri, logFile: prodLog, otlpUrl: sink.url }),
    );
    // The logs' cost as the issue measures it: the production configuration with and without its log lines (#14).
    mcpQuiet = await startServer('mcp-prod-quiet', 'mcp', {
      ...productionEnv({ jwksUri: issuer.jwksUri, logFile: prodLog, otlpUrl: sink.url }),
      BENCH_LOGS: 'off',
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
    const prodSessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS, LIST_CONNECTIONS); i++)
      prodSessions.push(await openSession(mcpProd.url, bearer));
    const quietSessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) quietSessions.push(await openSession(mcpQuiet.url, bearer));
    const redisSessions = [];
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) redisSessions.push(await openSession(mcpRedis.url));
    // Our servers on Fastify (#27): its own ceiling, bare and production, each measured next to its Express twin.
    fastify = await startFastifyServers({
      callText: call.text,
      listText: list.text,
      jwksUri: issuer.jwksUri,
      otlpUrl: sink.url,
      bearer,
    });
    // The peer frameworks, checked against our tools/list before they are measured (failed ones are kept as failed).
    peers = await startPeers(listed.tools, { issuer, sink });
    console.log('');

    const plan = mainPlan(
      { ceiling, mcp, mcpAuth, mcpRedis, mcpProd, mcpQuiet },
      { fake, mcp: sessions, auth: authSessions, redis: redisSessions, prod: prodSessions, quiet: quietSessions },
      authHeaders,
      peers,
      fastify,
    );
    await runPlan(plan, runs);
    // Redis memory per idle session: what 2,000 more sessions add to Redis's used_memory.
    redisMemory = await redisBytesPerSession(mcpRedis.url, 2_000);
    process.stdout.write(
      `  redis: ${redisMemory.bytesPerSession} B of Redis memory per idle session (${redisMemory.sessions} sessions)\n`,
    );
  } finally {
    await Promise.all([
      mcp.stop(),
      mcpQuiet?.stop(),
      mcpRedis.stop(),
      ceiling?.stop(),
      mcpAuth?.stop(),
      mcpProd?.stop(),
      stopPeers(peers),
      stopFastifyServers(fastify),
    ]);
    production = { exportBytes: sink.bytes(), exportRequests: sink.requests(), logBytes: statSync(prodLog).size };
    process.stdout.write(
      `  production: ${production.exportRequests} OTLP exports (${production.exportBytes} B) to the sink, ${production.logBytes} B of log lines\n`,
    );
    await sink.stop();
    await issuer.stop();
    await dropRedisPrefix(redisPrefix);
  }
  const measured = summarise(runs);

  // --- limiter: its own server, alone on core 0 now that the others have stopped ---------------------
  process.stdout.write(limiterLine());
  const limiter = await runLimiter();
  process.stdout.write(limiterDone(limiter));

  // --- abuse: session and batch floods, a normal caller during 401/429 floods, log bytes per refusal ---
  process.stdout.write('  abuse (sessions, batch, floods) ...');
  const abuseIssuer = await startIssuer();
  const abuse = await runAbuse(abuseIssuer).finally(() => abuseIssuer.stop());
  process.stdout.write(' done\n');

  // --- replicas: two against one through nginx, both on the server core -----------------------------
  process.stdout.write('  replicas (two against one, through nginx) ...');
  const replicas = await runReplicas();
  process.stdout.write(' done\n');

  // --- tasks: creation rate, tasks/get, the queue's overhead, Redis memory per task (one server, Redis) ---
  process.stdout.write('  tasks (BullMQ on Redis) ...');
  const tasks = await runTasks();
  process.stdout.write(' done\n');

  // --- idle sessions memory -----------------------------------------------------------------------
  process.stdout.write('  idle sessions ...');
  // It boots the fixture in-process with authentication off, hence NODE_ENV=development (see above).
  const idle = await runChild(0, [...NODE_FLAGS, '--expose-gc', IDLE], 'idle sessions probe', undefined, {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
  });
  process.stdout.write(` +${idle.addedMB.toFixed(1)} MB\n`);

  // --- heap under load: the settled heap after 5,000 and 45,000 calls, logs on ---------------------
  process.stdout.write('  heap under load ...');
  const heap = await runChild(0, [...NODE_FLAGS, '--expose-gc', HEAP], 'heap probe', undefined, {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
  });
  process.stdout.write(` ${heap.growthMB >= 0 ? '+' : ''}${heap.growthMB} MB\n`);

  // --- boot: module initialisation with 50 and 1,000 decorated tools, a fresh process per boot ------------
  process.stdout.write('  boot (50 and 1,000 decorated tools) ...');
  const boot = await runBoot();
  process.stdout.write(` ${boot.tools[1000].initMs} ms for 1,000 tools\n\n`);

  report(
    runs,
    measured,
    idle,
    { loadBefore, busyBefore },
    { jwksFetches: issuer.fetches(), check: authCheck },
    limiter,
    heap,
    abuse,
    redisMemory,
    replicas,
    production,
    boot,
    peersBlock(peers, measured),
    tasks,
    adaptersBlock(measured, peersBlock(peers, measured)),
  );
}

main().catch((error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

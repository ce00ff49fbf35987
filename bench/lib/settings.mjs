// What the bench runs and where: file paths, the BENCH_* environment settings, the load plan's sizes and
// the targets. Every other bench/lib module and run.mjs read them from here.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVE = resolve(ROOT, 'dist/bench/bench/fixture/serve.js');
/** The Node flags our servers (and the ceilings, the same Nest apps) run with, as the image runs them. */
export { NODE_FLAGS } from '../../scripts/lib/node-flags.mjs';
// The peer frameworks' servers (bench/peers/*.ts, built by the same tsc run as the fixture).
export const PEERS_DIR = resolve(ROOT, 'dist/bench/bench/peers');
export const LOAD = resolve(ROOT, 'bench/load.mjs');
export const IDLE = resolve(ROOT, 'bench/idle-sessions.mjs');
export const HEAP = resolve(ROOT, 'bench/heap-calls.mjs');
export const TMP = resolve(ROOT, '.bench');
export const RESULTS = resolve(ROOT, 'bench/results/latest.json');
export const NODE = process.execPath;

/** Settings given as `K=V,K=V` (BENCH_AB_ENV, BENCH_INSTR_ENV) as an environment object. */
export const envSettings = (value = '') =>
  Object.fromEntries(
    value
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]), // a value may hold '='
  );

export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
export const CPU_PROF = process.env.BENCH_CPU_PROF === '1';
export const PROTOCOL = '2025-11-25';
export const TOOL_COUNT = 50;
export const CONNECTIONS = [16, 64];
export const LIST_CONNECTIONS = 16;
// call, list: against the ceiling; auth: the authenticated tools/call against the unauthenticated one.
// logs: the production JSON logs (a call entry per request; the access line of a successful MCP request is at debug)
// may cost at most 10% of a trivial tool call's throughput (issue #14; it was a 40% regression guard since #6).
// redis: tools/call with every store in Redis, against the memory stores, at 16 connections (issue #12).
// prodCall, prodList: the production configuration (auth, logs to a file, metrics, tracing exported) against the
// ceiling (issue #14: >= 50% for tools/call at 16 connections, >= 100% for tools/list).
// peerCall, peerP99: against the published peer frameworks measured in the same run (issue #14, bench/lib/peers.mjs):
// the production tools/call at 16 connections >= 2.5x the fastest peer's req/s, and its p99 at 64 connections at most
// a quarter of the best peer's p99.
export const TARGETS = {
  call: 0.5,
  list: 0.8,
  auth: 0.8,
  logs: 0.9,
  redis: 0.7,
  prodCall: 0.5,
  prodList: 1.0,
  peerCall: 2.5,
  peerP99: 0.25,
  // #40, at x16 unless named: the production configuration against the bare server on the same adapter; ours on
  // Fastify against ours on Express, bare and in production; the production configuration on Fastify against the
  // official SDK equipped for production (what 65% of bare puts it past); p99 at x64 against that peer's on each
  // adapter; tools/list.
  adapters: {
    prodVsBare: 0.65,
    fastifyVsExpressBare: 1.2,
    fastifyVsExpressProd: 1.1,
    vsEquippedPeer: 6,
    p99VsEquippedPeer: 0.25,
    prodList: 1.0,
  },
  idleMB: 100,
  heapGrowthMB: 5,
};
export const AUTH_ISSUER = 'https://issuer.bench.invalid';
export const AUTH_AUDIENCE = 'mcp:bench';
// The limiter scenario: its own MCP server with the module's default limits (BENCH_LIMITS=default) and
// MCP_RATE_LIMIT_PER_MINUTE=perMinute, driven at a fixed overall rate for its own duration (no warm-up: that
// would spend the budget). BENCH_LIMITER_DURATION / BENCH_LIMITER_RATE override; BENCH_ONLY=limiter runs
// only this scenario and merges its block into an existing results file.
export const LIMITER = {
  perMinute: 1200,
  rate: Number(process.env.BENCH_LIMITER_RATE ?? 100),
  connections: 10,
  durationS: Number(process.env.BENCH_LIMITER_DURATION ?? 20),
  tolerance: 0.1,
  rssWarmupS: 3,
  flatMB: 10,
};
export const ONLY = process.env.BENCH_ONLY;
// The abuse scenario (bench/lib/abuse.mjs): its own server with the module's default limits (the caps below are
// those defaults), auth on and logs to a file. BENCH_ABUSE_DURATION sets the flood length; BENCH_ONLY=abuse runs
// only this scenario and merges its block into an existing results file. A refused request may log at most
// logBytesPerRefusal bytes on average (before the aggregated refusal log, 566 B each).
export const ABUSE = {
  initializeAttempts: 1000,
  maxSessionsPerSubject: 100,
  maxBatchSize: 100,
  maxBatchResponseBytes: 10 * 1024 * 1024,
  durationS: Number(process.env.BENCH_ABUSE_DURATION ?? 8),
  normalRate: 50,
  normalConnections: 4,
  floodConnections: 16,
  refusalIntervalMs: 2000,
  logBytesPerRefusal: 50,
};

/**
 * The production configuration (#14), one definition for the bench and the profiler: NODE_ENV=production, Bearer JWT
 * auth against the bench's JWKS, the JSON call and access logs written to `logFile`, metrics, and tracing with the
 * OpenTelemetry SDK exporting OTLP/HTTP to `otlpUrl`.
 */
export const productionEnv = ({ jwksUri, logFile, otlpUrl }) => ({
  NODE_ENV: 'production',
  BENCH_AUTH: 'on',
  BENCH_LOG_FILE: logFile,
  BENCH_TRACING: 'on',
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  MCP_JWKS_URI: jwksUri,
  MCP_JWT_ISSUER: AUTH_ISSUER,
  MCP_JWT_AUDIENCE: AUTH_AUDIENCE,
});

// The limiter scenario: a steady, fixed-rate tools/call load against a server running the module's real
// per-caller limits. It counts allowed (200) and limited (429, each with Retry-After and a JSON-RPC -32003)
// answers, samples the server's RSS every second, and judges: limiter engaged, every 429 had Retry-After,
// memory flat.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BASE_HEADERS, CALL_BODY, openSession } from './mcp-client.mjs';
import { rssMB, runChild, startServer } from './servers.mjs';
import { LIMITER, LOAD, RESULTS, ROOT } from './settings.mjs';

/** Least-squares slope of [t seconds, mb] points, in MB per minute. */
function slopePerMin(points) {
  if (points.length < 2) return undefined;
  const n = points.length;
  const mt = points.reduce((a, [t]) => a + t, 0) / n;
  const mm = points.reduce((a, [, m]) => a + m, 0) / n;
  const num = points.reduce((a, [t, m]) => a + (t - mt) * (m - mm), 0);
  const den = points.reduce((a, [t]) => a + (t - mt) ** 2, 0);
  return den ? (num / den) * 60 : undefined;
}

// The least time of refusals the memory check needs to judge anything.
const MIN_LIMITING_S = 5;
const r1 = (v) => (v === undefined ? undefined : Math.round(v * 10) / 10);

/** Runs the scenario (server start to stop) and returns the `limiter` results block. */
export async function runLimiter() {
  const { perMinute, rate, connections, durationS, tolerance, rssWarmupS, flatMB } = LIMITER;
  // Authentication off as for `mcp` (so NODE_ENV=development): every session is the same "anonymous" caller,
  // so the 10 connections share one budget.
  const server = await startServer('mcp-limiter', 'mcp', {
    NODE_ENV: 'development',
    BENCH_AUTH: 'off',
    BENCH_LIMITS: 'default',
    MCP_RATE_LIMIT_PER_MINUTE: String(perMinute),
  });
  const samples = [];
  let sampler;
  let r;
  try {
    const sessions = [];
    for (let i = 0; i < connections; i++) sessions.push(await openSession(server.url));
    const cfg = {
      url: server.url,
      path: '/mcp',
      connections,
      duration: durationS,
      warmup: 0,
      body: CALL_BODY('[<id>]'),
      headers: BASE_HEADERS,
      sessions,
      verify: 'limiter',
      rate,
    };
    let t0;
    const sample = () => {
      const mb = rssMB(server.child.pid);
      if (mb !== undefined) samples.push([(performance.now() - t0) / 1000, mb]);
    };
    r = await runChild(1, [LOAD, JSON.stringify(cfg)], `autocannon limiter x${connections} @${rate}/s`, (line) => {
      if (line !== 'PHASE measure') return;
      t0 = performance.now();
      sample();
      sampler = setInterval(sample, 1000);
    });
    clearInterval(sampler);
    sample();
  } finally {
    clearInterval(sampler);
    await server.stop();
  }

  const c = r.limiter;
  const other = Object.entries(r.statuses)
    .filter(([code]) => code !== '200' && code !== '429')
    .reduce((n, [, v]) => n + v, 0);
  const sent = r.requestsTotal;
  const elapsedS = r.elapsedS ?? r.durationS;
  // The in-memory limiter's window is a fixed minute from the first call: within one window at most
  // perMinute calls pass; each further started window adds another perMinute.
  const windows = Math.max(1, Math.ceil(elapsedS / 60));
  const expectedAllowed = Math.min(sent, perMinute * windows);
  const allowedOff = expectedAllowed ? Math.abs(c.ok - expectedAllowed) / expectedAllowed : 1;
  const failures = other + r.errors + r.timeouts + r.mismatches;
  const engaged = c.limited > 0 && allowedOff <= tolerance && failures === 0;
  const after = samples.filter(([t]) => t >= rssWarmupS);
  // Judged while the limiter refuses (from the first 429 to the end): what a flood of refused calls leaves behind.
  // The growth before it is V8 sizing its young generation to the allocation rate (a one-time step of about 17 MB
  // on this fixture, about 4 MB with --max-semi-space-size=1), not something refusals keep.
  const limitedFromS = c.firstLimitedAtMs === undefined ? undefined : c.firstLimitedAtMs / 1000;
  const limiting = limitedFromS === undefined ? [] : samples.filter(([t]) => t >= limitedFromS);
  const limitingS = limiting.length > 1 ? limiting.at(-1)[0] - limiting[0][0] : 0;
  const rss = {
    samples: samples.length,
    startMB: r1(samples[0]?.[1]),
    afterWarmupMB: r1(after[0]?.[1]),
    endMB: r1(samples.at(-1)?.[1]),
    maxMB: r1(samples.length ? Math.max(...samples.map(([, m]) => m)) : undefined),
    growthAfterWarmupMB: after.length > 1 ? r1(after.at(-1)[1] - after[0][1]) : undefined,
    limitingFromS: r1(limitedFromS),
    limitingForS: r1(limitingS),
    growthWhileLimitingMB: limitingS >= MIN_LIMITING_S ? r1(limiting.at(-1)[1] - limiting[0][1]) : undefined,
    slopeMBPerMin: r1(slopePerMin(after)),
    series: samples.map(([t, m]) => [Math.round(t * 10) / 10, r1(m)]),
  };
  const flat = rss.growthWhileLimitingMB !== undefined && rss.growthWhileLimitingMB < flatMB;
  const checks = {
    limiterEngaged: engaged ? 'PASS' : 'FAIL',
    retryAfterOnEvery429: c.limited > 0 && c.retryAfterMissing === 0 ? 'PASS' : 'FAIL',
    memoryFlat: flat
      ? 'PASS'
      : rss.growthWhileLimitingMB === undefined
        ? `FAIL (under ${MIN_LIMITING_S} s of refusals sampled)`
        : 'FAIL',
  };
  return {
    date: new Date().toISOString(),
    settings: {
      callsPerMinute: perMinute,
      maxConcurrentCalls: 'default (16)',
      targetRate: rate,
      connections,
      durationS,
      tolerance,
      rssWarmupS,
      flatMB,
    },
    sent,
    elapsedS: r1(elapsedS),
    achievedRate: r1(sent / elapsedS),
    allowed: c.ok,
    limited: c.limited,
    expectedAllowed,
    allowedVsExpectedPct: r1((c.ok / expectedAllowed) * 100),
    firstLimitedAtS: c.firstLimitedAtMs === undefined ? undefined : r1(c.firstLimitedAtMs / 1000),
    retryAfter: { missing: c.retryAfterMissing, minS: c.retryAfterMin, maxS: c.retryAfterMax },
    statuses: r.statuses,
    failures: { otherStatuses: other, errors: r.errors, timeouts: r.timeouts, badBodies: r.mismatches },
    latencyMs: r.latencyMs,
    rss,
    checks,
    failed: Object.values(checks).filter((v) => v.startsWith('FAIL')).length,
  };
}

/** The line printed while the scenario runs, and its end. */
export const limiterLine = () =>
  `  limiter (mcp-limiter, ${LIMITER.perMinute}/min, ${LIMITER.rate} req/s x${LIMITER.connections}, ${LIMITER.durationS} s) ...`;
export const limiterDone = (l) =>
  ` allowed ${l.allowed}, limited ${l.limited}, ${l.achievedRate} req/s, RSS ${l.rss.startMB} -> ${l.rss.endMB} MB\n`;

/** The printed result of the scenario. */
export function printLimiter(l) {
  console.log(
    `\nlimiter (callsPerMinute ${l.settings.callsPerMinute}, ${l.settings.connections} connections at ${l.settings.targetRate} req/s for ${l.settings.durationS} s, tools/call echo):\n` +
      `  sent ${l.sent} in ${l.elapsedS} s (achieved ${l.achievedRate} req/s): allowed ${l.allowed} (200), limited ${l.limited} (429; first at ${l.firstLimitedAtS ?? '-'} s), ` +
      `expected allowed ${l.expectedAllowed} (${l.allowedVsExpectedPct}%); other statuses ${l.failures.otherStatuses}, errors ${l.failures.errors}, timeouts ${l.failures.timeouts}, bad bodies ${l.failures.badBodies}\n` +
      `  Retry-After: missing on ${l.retryAfter.missing} of ${l.limited} 429s (values ${l.retryAfter.minS ?? '-'}..${l.retryAfter.maxS ?? '-'} s)\n` +
      `  server RSS: start ${l.rss.startMB} MB, after ${l.settings.rssWarmupS} s ${l.rss.afterWarmupMB} MB, end ${l.rss.endMB} MB, max ${l.rss.maxMB} MB; ` +
      `growth after warm-up ${l.rss.growthAfterWarmupMB} MB, slope ${l.rss.slopeMBPerMin} MB/min (${l.rss.samples} samples); ` +
      `while refusing (${l.rss.limitingFromS ?? '-'} s to the end, ${l.rss.limitingForS} s) ${l.rss.growthWhileLimitingMB ?? '-'} MB\n` +
      `  limiter engaged (limited > 0, allowed within ±${l.settings.tolerance * 100}% of ${l.expectedAllowed}, no other failures): ${l.checks.limiterEngaged}\n` +
      `  every 429 had Retry-After: ${l.checks.retryAfterOnEvery429}\n` +
      `  memory flat while refusing (growth < ${l.settings.flatMB} MB from the first 429 to the end): ${l.checks.memoryFlat}`,
  );
}

/**
 * BENCH_ONLY=limiter: puts the block into the existing results file (the throughput numbers stay as they
 * were), adjusting its `failed` count; without one, writes a file with the block alone.
 */
export function mergeLimiter(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const failed = (prev.failed ?? 0) - (prev.limiter?.failed ?? 0) + block.failed;
  writeFileSync(RESULTS, JSON.stringify({ ...prev, limiter: block, failed }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (limiter block merged)`);
}

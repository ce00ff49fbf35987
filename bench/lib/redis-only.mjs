// BENCH_ONLY=redis: the Redis stores' cost alone, without the rest of the full bench (about 15 minutes). The two
// servers, `mcp` and `mcp-redis`, run back to back at each connection count, BENCH_ROUNDS times; the median of the
// per-round ratios is reported and merged into the results file as `redisAlone` (the full run's `redis call x16`
// row stays the verdict of record; this is a quick re-measure while working on the Redis path).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { CALL_BODY, openSession } from './mcp-client.mjs';
import { runPlan } from './plan.mjs';
import { dropRedisPrefix } from './redis.mjs';
import { valid } from './report.mjs';
import { startServer } from './servers.mjs';
import { CONNECTIONS, DURATION, RESULTS, ROOT, ROUNDS, TARGETS, WARMUP } from './settings.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** Measures `mcp` and `mcp-redis` back to back; resolves with the `redisAlone` block. */
export async function runRedisOnly() {
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const env = { NODE_ENV: 'development', BENCH_AUTH: 'off', BENCH_LOGS: 'off' };
  let mcp;
  let redis;
  try {
    mcp = await startServer('mcp', 'mcp', env);
    redis = await startServer('mcp-redis', 'mcp', { ...env, MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix });
    const sessions = { mcp: [], redis: [] };
    for (let i = 0; i < Math.max(...CONNECTIONS); i++) {
      sessions.mcp.push(await openSession(mcp.url));
      sessions.redis.push(await openSession(redis.url));
    }
    const scenario = (key, label, server, c) => ({
      key: `${key}.call.${c}`,
      label: `${label} x${c}`,
      server,
      path: '/mcp',
      c,
      body: CALL_BODY,
      sessions: sessions[key],
      verify: 'call',
      ref: key === 'redis' ? `mcp.call.${c}` : undefined,
    });
    const plan = CONNECTIONS.flatMap((c) => [
      scenario('mcp', 'mcp tools/call', mcp, c),
      scenario('redis', 'mcp tools/call (redis)', redis, c),
    ]);
    const runs = await runPlan(plan);
    const byConnections = Object.fromEntries(
      CONNECTIONS.map((c) => {
        const ours = runs[`mcp.call.${c}`];
        const theirs = runs[`redis.call.${c}`];
        const ratios = theirs.map((r, i) => r.reqPerSec / ours[i].reqPerSec);
        const ok = [...ours, ...theirs].every(valid);
        return [c, { roundRatios: ratios.map((v) => +v.toFixed(3)), ratio: +median(ratios).toFixed(3), valid: ok }];
      }),
    );
    const at16 = byConnections[16];
    const result = !at16?.valid ? 'FAIL (invalid run)' : at16.ratio >= TARGETS.redis ? 'PASS' : 'FAIL';
    return { target: `>= ${Math.round(TARGETS.redis * 100)}% of mcp at x16`, byConnections, result };
  } finally {
    await Promise.all([mcp?.stop(), redis?.stop()]);
    await dropRedisPrefix(prefix);
  }
}

export function printRedisOnly(block) {
  for (const [c, v] of Object.entries(block.byConnections))
    console.log(
      `redis stores at x${c}: ${Math.round(v.ratio * 100)}% of the memory stores (rounds ${v.roundRatios.map((r) => `${Math.round(r * 100)}%`).join(', ')})${v.valid ? '' : ' INVALID'}`,
    );
  console.log(`target ${block.target}: ${block.result}`);
}

/** Merges the block into the existing results file as `redisAlone`; the other numbers stay as they were. */
export function mergeRedisOnly(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const settings = { date: new Date().toISOString(), durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS };
  writeFileSync(RESULTS, JSON.stringify({ ...prev, redisAlone: { ...block, settings } }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (redisAlone block merged)`);
}

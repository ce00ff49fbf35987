// What the bench reports: the median run per scenario, the verdicts against TARGETS, the table on
// stdout and bench/results/latest.json.
import { spawnSync } from 'node:child_process';
import { printAdapters } from './adapters-block.mjs';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { printLimiter } from './limiter.mjs';
import { printAbuse } from './abuse.mjs';
import { printReplicas } from './replicas.mjs';
import { printTasks } from './tasks.mjs';
import { printBoot } from './boot.mjs';
import { PIN } from './servers.mjs';
import { printPeers, printTable } from './tables.mjs';
import {
  AUTH_AUDIENCE,
  AUTH_ISSUER,
  CONNECTIONS,
  CPU_PROF,
  DURATION,
  PROTOCOL,
  RESULTS,
  ROOT,
  ROUNDS,
  TARGETS,
  TOOL_COUNT,
  WARMUP,
} from './settings.mjs';

export const valid = (r) =>
  r.non200 === 0 && r.errors === 0 && r.timeouts === 0 && r.mismatches === 0 && r.requestsTotal > 0;

/** `runs`: scenario key -> its runs, one a round. */
export function summarise(runs) {
  // Several rounds: the median run by req/s stands for the scenario; counts of failures add up.
  return Object.fromEntries(
    Object.entries(runs).map(([key, list]) => {
      const median = [...list].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor((list.length - 1) / 2)];
      const sum = (f) => list.reduce((n, r) => n + r[f], 0);
      const effs = list
        .map((r) => r.reqPerServerCpuSec)
        .filter((v) => v !== undefined)
        .sort((a, b) => a - b);
      return [
        key,
        {
          ...median,
          reqPerServerCpuSec: effs.length ? effs[Math.floor((effs.length - 1) / 2)] : undefined,
          non200: sum('non200'),
          errors: sum('errors'),
          timeouts: sum('timeouts'),
          mismatches: sum('mismatches'),
          rounds: list.map((r) => Math.round(r.reqPerSec)),
        },
      ];
    }),
  );
}

/** One row a scenario, with its ratio and verdict; `measured` is `summarise(runs)`. */
function buildRows(runs, measured) {
  const rows = [];
  const median = (xs) => {
    const v = xs.filter((x) => x !== undefined && Number.isFinite(x)).sort((a, b) => a - b);
    return v.length ? v[Math.floor((v.length - 1) / 2)] : undefined;
  };
  /** Ratio of one scenario to another round by round (both measured back to back). */
  const perRound = (key, refKey, f) =>
    runs[key].map((r, i) => (r[f] && runs[refKey][i]?.[f] ? r[f] / runs[refKey][i][f] : undefined));
  // against: what the ratio compares with ('ceiling', or 'mcp' for the auth rows, taken round by round).
  const row = (scenario, short, key, refKey, target, against = 'ceiling') => {
    const r = measured[key];
    const ref = refKey ? measured[refKey] : undefined;
    const sameRound = against !== 'ceiling';
    const roundRatios = ref && sameRound ? perRound(key, refKey, 'reqPerSec') : undefined;
    const ratio = !ref ? undefined : sameRound ? median(roundRatios) : r.reqPerSec / ref.reqPerSec;
    const cpuRatio = !ref
      ? undefined
      : sameRound
        ? median(perRound(key, refKey, 'reqPerServerCpuSec'))
        : r.reqPerServerCpuSec && ref.reqPerServerCpuSec
          ? r.reqPerServerCpuSec / ref.reqPerServerCpuSec
          : undefined;
    const ok = valid(r) && (!ref || valid(ref));
    const verdict = !ok ? 'FAIL (invalid run)' : target === undefined ? '-' : ratio >= target ? 'PASS' : 'FAIL';
    rows.push({
      scenario,
      short,
      connections: r.connections,
      reqPerSec: r.reqPerSec,
      p50Ms: r.latencyMs.p50,
      p99Ms: r.latencyMs.p99,
      ratioToCeiling: ratio,
      ratioAgainst: ref ? (sameRound ? `${refKey} (median of per-round ratios)` : refKey) : undefined,
      roundRatios,
      target: target === undefined ? undefined : `>= ${Math.round(target * 100)}% of ${against}`,
      result: verdict,
      reqPerServerCpuSec: r.reqPerServerCpuSec,
      ratioPerCpuSec: cpuRatio,
      serverCpuPct: r.serverCpuPct,
      clientCpuPct: r.clientCpuPct,
      bytesPerReq: r.bytesPerReq,
      requestsTotal: r.requestsTotal,
      non200: r.non200,
      errors: r.errors,
      timeouts: r.timeouts,
      mismatches: r.mismatches,
      statuses: r.statuses,
      latencyMs: r.latencyMs,
      warmup: r.warmup,
      roundsReqPerSec: r.rounds,
    });
  };
  for (const c of CONNECTIONS) {
    row('ceiling tools/call (canned)', `ceiling call x${c}`, `ceiling.call.${c}`);
    row('mcp tools/call echo', `mcp call x${c}`, `mcp.call.${c}`, `ceiling.call.${c}`, TARGETS.call);
    row(
      'mcp tools/call echo, stateless 2026-07-28',
      `2026 call x${c}`,
      `modern.call.${c}`,
      `mcp.call.${c}`,
      undefined,
      'mcp',
    );
    row('mcp tools/call echo (auth)', `auth call x${c}`, `auth.call.${c}`, `mcp.call.${c}`, TARGETS.auth, 'mcp');
    row(
      'mcp tools/call echo (Redis stores)',
      `redis call x${c}`,
      `redis.call.${c}`,
      `mcp.call.${c}`,
      c === 16 ? TARGETS.redis : undefined,
      'mcp',
    );
    row(
      'mcp tools/call echo, production config',
      `prod call x${c}`,
      `prod.call.${c}`,
      `ceiling.call.${c}`,
      c === 16 ? TARGETS.prodCall : undefined,
    );
    row('  the same without log lines', `prod quiet x${c}`, `prodquiet.call.${c}`, `ceiling.call.${c}`);
    // What the logs cost (#14): production with its log lines against production without, round by round.
    row(
      '  its log lines (prod vs. quiet)',
      `logs x${c}`,
      `prod.call.${c}`,
      `prodquiet.call.${c}`,
      TARGETS.logs,
      'quiet',
    );
  }
  row(`ceiling list (${TOOL_COUNT} tools, res.json)`, 'ceiling list', 'ceiling.list');
  row(`mcp tools/list (${TOOL_COUNT} tools)`, 'mcp list', 'mcp.list', 'ceiling.list', TARGETS.list);
  row(
    `mcp tools/list (${TOOL_COUNT} tools), production config`,
    'prod list',
    'prod.list',
    'ceiling.list',
    TARGETS.prodList,
  );
  return rows;
}

/**
 * Prints the table and the verdicts, then writes RESULTS. `runs` as for summarise, `measured` its
 * result; `idle` is the idle-sessions probe's answer; `machine` what run.mjs saw before the bench
 * ({ loadBefore, busyBefore }); `auth` the issuer's JWKS fetch count and checkAuth's answer; `limiter`
 * the limiter scenario's block (runLimiter); `heap` the heap-under-load probe's answer; `abuse` the abuse
 * scenario's block (runAbuse); `boot` the boot scenario's block (runBoot); `peers` the peers' block (peersBlock).
 */
export function report(
  runs,
  measured,
  idle,
  { loadBefore, busyBefore },
  { jwksFetches, check },
  limiter,
  heap,
  abuse,
  redisMemory,
  replicas,
  production,
  boot,
  peers,
  tasks,
  adapters,
) {
  const rows = buildRows(runs, measured);
  const idleVerdict =
    idle.liveSessionsAfter - idle.liveSessionsBefore !== idle.sessions
      ? 'FAIL (invalid run)'
      : idle.addedMB < TARGETS.idleMB
        ? 'PASS'
        : 'FAIL';
  printTable(rows);
  printPeers(peers);
  printAdapters(adapters);
  console.log(
    `\nidle sessions: ${idle.sessions.toLocaleString('en-US')} sessions -> +${idle.addedMB.toFixed(1)} MB heapUsed ` +
      `(${idle.bytesPerSession} B/session; heap ${idle.heapUsedBeforeMB.toFixed(1)} -> ${idle.heapUsedAfterMB.toFixed(1)} MB, ` +
      `rss +${idle.rssAddedMB.toFixed(1)} MB), target < ${TARGETS.idleMB} MB: ${idleVerdict}`,
  );
  const heapVerdict = heap.growthMB < TARGETS.heapGrowthMB ? 'PASS' : 'FAIL';
  console.log(
    `heap under load (logs on): settled heapUsed ${heap.beforeMB} MB after ${heap.warmCalls.toLocaleString('en-US')} calls, ` +
      `${heap.afterMB} MB after ${(heap.warmCalls + heap.measuredCalls).toLocaleString('en-US')} (${heap.growthMB >= 0 ? '+' : ''}${heap.growthMB} MB), target < ${TARGETS.heapGrowthMB} MB growth: ${heapVerdict}`,
  );
  printLimiter(limiter);
  printAbuse(abuse);
  printReplicas(replicas);
  printTasks(tasks);
  console.log('');
  printBoot(boot);
  if (redisMemory)
    console.log(
      `\nredis: ${redisMemory.bytesPerSession} B of Redis memory per idle session (${redisMemory.sessions} sessions)`,
    );
  const loadAfter = loadavg();
  console.log(
    `\nload average (1 min) before/after: ${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} (the bench itself adds about 2)`,
  );
  const failed =
    rows.filter((r) => r.result.startsWith('FAIL')).length +
    (idleVerdict.startsWith('FAIL') ? 1 : 0) +
    (heapVerdict === 'FAIL' ? 1 : 0) +
    limiter.failed +
    abuse.failed +
    peers.failed +
    adapters.failed +
    (boot.pass ? 0 : 1);
  console.log(failed ? `\n*** ${failed} target(s) FAILED ***` : '\nall targets PASS');

  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dirty =
    spawnSync('git', ['status', '--porcelain', '--', 'libs', 'apps'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !==
    '';
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        git: { commit: git, libsOrAppsDirty: dirty },
        node: process.version,
        machine: {
          cpu: cpus()[0]?.model,
          cores: cpus().length,
          memoryGB: +(totalmem() / 2 ** 30).toFixed(1),
          pinned: PIN,
          busyPctBefore: busyBefore,
          loadavgBefore: loadBefore,
          loadavgAfter: loadAfter,
        },
        settings: {
          durationS: DURATION,
          warmupS: WARMUP,
          rounds: ROUNDS,
          tools: TOOL_COUNT,
          protocolVersion: PROTOCOL,
          cpuProfile: CPU_PROF,
        },
        targets: TARGETS,
        auth: { issuer: AUTH_ISSUER, audience: AUTH_AUDIENCE, algorithm: 'RS256', jwksFetches, check },
        scenarios: rows,
        idleSessions: { ...idle, targetMB: TARGETS.idleMB, result: idleVerdict },
        heapUnderLoad: { ...heap, targetGrowthMB: TARGETS.heapGrowthMB, result: heapVerdict },
        limiter,
        abuse,
        redisMemory,
        replicas,
        production,
        boot,
        peers,
        tasks,
        adapters,
        failed,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)}`);
}

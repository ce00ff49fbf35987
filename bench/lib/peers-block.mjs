// The `peers` block of the results (bench/lib/peers.mjs measures, this judges): per peer its status and figures,
// the ceiling's and our production configuration's figures of the same run, and the targets against the peers.
import { valid } from './report.mjs';
import { CONNECTIONS, TARGETS } from './settings.mjs';

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
      production: Boolean(p.production),
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
  // The bare peers (each in its documented default setup); the one equipped for production is judged in adapters-block.
  const ok = frameworks.filter((f) => f.status === 'ok' && !f.production);
  const [low, high] = [Math.min(...CONNECTIONS), Math.max(...CONNECTIONS)];
  const fastest = ok.filter((f) => f.call[low]).sort((a, b) => b.call[low].reqPerSec - a.call[low].reqPerSec)[0];
  const best = ok.filter((f) => f.call[high]).sort((a, b) => a.call[high].p99Ms - b.call[high].p99Ms)[0];
  const ours = per((c) => `prod.call.${c}`);
  // Ours against one peer on one figure at `c` connections, and the verdict of `pass(ratio)`.
  const versus = (c, peer, metric, target, pass) => {
    const [o, p] = [ours[c], peer?.call[c]];
    // Judged on the exact ratio, reported rounded (as in adapters-block).
    const exact = o && p && p[metric] > 0 ? o[metric] / p[metric] : undefined;
    const ratio = exact === undefined ? undefined : +exact.toFixed(3);
    const result = !o
      ? 'FAIL (not measured)'
      : !o.valid
        ? 'FAIL (invalid run)'
        : !peer
          ? 'FAIL (no valid peer)'
          : exact === undefined
            ? 'FAIL (no figure)'
            : pass(exact)
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

// The bench's tables on stdout: our scenarios against their references, and the peers beside the ceiling and our
// production configuration.
import { CONNECTIONS, ROUNDS } from './settings.mjs';

export const fmtPct = (v) => (v === undefined ? '?' : `${Math.round(v)}%`);

/** Our scenarios: one row each, with ratio, target and verdict (report.mjs's rows). */
export function printTable(rows) {
  const header = [
    'scenario',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'ratio',
    'target',
    'result',
    'non-200/err',
    'srv cpu',
    'req/cpu-s',
    'cpu ratio',
  ];
  const table = rows.map((r) => [
    r.scenario,
    String(r.connections),
    Math.round(r.reqPerSec).toString(),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    r.ratioToCeiling === undefined ? '(ref)' : `${(r.ratioToCeiling * 100).toFixed(0)}%`,
    r.target === undefined ? '-' : `>= ${r.target.split(' ')[1]} ${r.target.split(' ')[3]}`,
    r.result,
    `${r.non200}/${r.errors + r.timeouts + r.mismatches}`,
    fmtPct(r.serverCpuPct),
    r.reqPerServerCpuSec === undefined ? '?' : Math.round(r.reqPerServerCpuSec).toString(),
    r.ratioPerCpuSec === undefined
      ? r.ratioToCeiling === undefined
        ? '(ref)'
        : '?'
      : `${(r.ratioPerCpuSec * 100).toFixed(0)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i === 0 || i === 6 || i === 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(fmt(t));
  console.log(
    'ratio = req/s against the ceiling (the target); cpu ratio = requests per server CPU-second against the ceiling\n' +
      '(cross-check that holds when other processes share the cores; srv cpu well under 100% means the server was not the limit).\n' +
      'rows measured against another than the ceiling (auth, Redis and 2026 against mcp; the log lines: production against\n' +
      'production without them): ratio and cpu ratio taken round by round (back to back), the median of those reported.',
  );
  if (ROUNDS > 1) {
    console.log(
      `median of ${ROUNDS} rounds; per-round req/s: ${rows.map((r) => `${r.short} [${r.roundsReqPerSec.join(', ')}]`).join('; ')}`,
    );
    console.log(
      `per-round ratios: ${rows
        .filter((r) => r.roundRatios)
        .map(
          (r) =>
            `${r.short} [${r.roundRatios.map((x) => (x === undefined ? '?' : `${Math.round(x * 100)}%`)).join(', ')}]`,
        )
        .join('; ')}`,
    );
  }
}

/**
 * The peers' table (bench/lib/peers.mjs's `peers` block): per connection count the ceiling, our production
 * configuration and each measured peer, then the two targets against the peers and the peers that failed.
 */
export function printPeers(block) {
  const header = ['framework', 'version', 'conns', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'RSS MB', 'srv cpu', 'status'];
  const cells = (name, version, c, f, status) => [
    name,
    version,
    String(c),
    String(f.reqPerSec),
    f.ratioToCeiling === undefined ? '(ref)' : `${Math.round(f.ratioToCeiling * 100)}%`,
    f.p50Ms.toFixed(1),
    f.p99Ms.toFixed(1),
    f.rssMB === undefined ? '?' : f.rssMB.toFixed(1),
    fmtPct(f.serverCpuPct),
    status,
  ];
  const table = [];
  for (const c of CONNECTIONS) {
    if (block.ceiling[c]) table.push(cells('ceiling (canned)', '-', c, block.ceiling[c], ''));
    if (block.ours.call[c]) table.push(cells('ours, production configuration', '-', c, block.ours.call[c], ''));
    for (const f of block.frameworks) {
      if (f.call[c])
        table.push(
          cells(f.label, f.versions[Object.keys(f.versions)[0]], c, f.call[c], f.status === 'ok' ? 'ok' : 'FAILED'),
        );
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const fmt = (row) => row.map((x, i) => (i < 2 || i === 9 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  console.log(`\npeers: ${block.request}; ratio = req/s against the ceiling of the same run and connection count`);
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(fmt(t));
  for (const f of block.frameworks.filter((x) => x.status !== 'ok'))
    console.log(
      `FAILED peer ${f.name} (${Object.entries(f.versions)
        .map(([p, v]) => `${p} ${v}`)
        .join(', ')}): ${f.reason}`,
    );
  const v = block.prodVsFastestPeer;
  console.log(
    `ours (production) at x${v.connections}: ${v.oursValue ?? '?'} req/s = ${v.ratio ?? '?'}x the fastest peer's` +
      ` (${v.peer ?? 'none'}, ${v.peerValue ?? '?'} req/s), target ${v.target}: ${v.result}`,
  );
  const p = block.prodP99VsBestPeer;
  console.log(
    `ours (production) p99 at x${p.connections}: ${p.oursValue ?? '?'} ms = ${p.ratio ?? '?'} of the best peer's` +
      ` (${p.peer ?? 'none'}, ${p.peerValue ?? '?'} ms), target ${p.target}: ${p.result}`,
  );
}

// The `adapters` block of the results (#27; its targets #40): our server on Express and on Fastify, bare and in the
// production configuration, against each other, against each adapter's own ceiling, and against the official SDK
// equipped for production (`sdk-v1-prod`) and the fastest bare peer; every ratio between median rounds of one run.
import { valid } from './report.mjs';
import { CONNECTIONS, TARGETS } from './settings.mjs';

/** The scenarios the block reports, by key (the peers' are added from the peers block). */
const KEYS = [
  ...CONNECTIONS.flatMap((c) =>
    ['ceiling', 'ceiling-fastify', 'mcp', 'fastify', 'prod', 'prod-fastify'].map((k) => `${k}.call.${c}`),
  ),
  'ceiling.list',
  'ceiling-fastify.list',
  'prod.list',
  'prod-fastify.list',
];

/**
 * The block from `measured` (summarise(runs)) and the peers block: each scenario's figures, then the targets judged
 * on them (judgeAdapters).
 */
export function adaptersBlock(measured, peers) {
  const figures = {};
  for (const key of KEYS) {
    const r = measured[key];
    if (r) figures[key] = { reqPerSec: Math.round(r.reqPerSec), p99Ms: r.latencyMs.p99, valid: valid(r) };
  }
  for (const f of peers.frameworks)
    for (const [c, call] of Object.entries(f.call))
      figures[`peer.${f.name}.call.${c}`] = { reqPerSec: call.reqPerSec, p99Ms: call.p99Ms, valid: call.valid };
  return judgeAdapters(figures, peers);
}

/** The #40 targets on `figures` (key -> { reqPerSec, p99Ms, valid }); `peers` gives each peer's status. */
export function judgeAdapters(figures, peers) {
  const [low, high] = [Math.min(...CONNECTIONS), Math.max(...CONNECTIONS)];
  const ok = peers.frameworks.filter((f) => f.status === 'ok');
  const peerKey = (f, c) => f && `peer.${f.name}.call.${c}`;
  const fastest = ok
    .filter((f) => !f.production && figures[peerKey(f, low)])
    .sort((a, b) => figures[peerKey(b, low)].reqPerSec - figures[peerKey(a, low)].reqPerSec)[0];
  const equipped = ok.find((f) => f.name === 'sdk-v1-prod');
  const t = TARGETS.adapters;
  const exactRatio = (of, against, metric) => {
    const [a, b] = [figures[of], figures[against]];
    return a && b && b[metric] > 0 ? a[metric] / b[metric] : undefined;
  };
  // Judged on the exact ratio, reported to three places (two made 0.996 a 1, which passed ">= 1").
  const rounded = (r) => (r === undefined ? undefined : +r.toFixed(3));
  // `bound`: the two scenarios whose ratio is the most this one can reach in the same run. Our production server
  // does everything the bare one does and more, so it cannot answer faster than the bare one on its adapter; and the
  // same work on two adapters cannot differ by more than their ceilings do (a ceiling is its adapter doing no work).
  const target = (name, of, against, metric, wanted, pass, bound) => {
    const [a, b] = [figures[of], figures[against]];
    const exact = exactRatio(of, against, metric);
    const result =
      wanted === undefined
        ? 'REPORTED'
        : !a || !b
          ? 'FAIL (not measured)'
          : !a.valid || !b.valid
            ? 'FAIL (invalid run)'
            : exact === undefined
              ? 'FAIL (no figure)'
              : pass(exact)
                ? 'PASS'
                : 'FAIL';
    const valid = bound && bound.every((key) => figures[key]?.valid);
    const reach = valid ? { reach: rounded(exactRatio(...bound, 'reqPerSec')) } : {};
    return { name, of, against, metric, ratio: rounded(exact), target: wanted, result, ...reach };
  };
  const atLeast = (min) => [`>= ${min}`, (r) => r >= min];
  const prodFastify = `prod-fastify.call.${low}`;
  const ceilings = [`ceiling-fastify.call.${low}`, `ceiling.call.${low}`];
  const equippedP99 = (adapter, key) =>
    target(
      `p99 at x${high}, production, ${adapter} / SDK 1.x equipped for production`,
      `${key}.call.${high}`,
      peerKey(equipped, high),
      'p99Ms',
      `<= ${t.p99VsEquippedPeer}`,
      (r) => r <= t.p99VsEquippedPeer,
    );
  const targets = [
    target('production / bare, express', `prod.call.${low}`, `mcp.call.${low}`, 'reqPerSec', ...atLeast(t.prodVsBare)),
    target('production / bare, fastify', prodFastify, `fastify.call.${low}`, 'reqPerSec', ...atLeast(t.prodVsBare)),
    target(
      'bare, fastify / express',
      `fastify.call.${low}`,
      `mcp.call.${low}`,
      'reqPerSec',
      ...atLeast(t.fastifyVsExpressBare),
      ceilings,
    ),
    target(
      'production, fastify / express',
      prodFastify,
      `prod.call.${low}`,
      'reqPerSec',
      ...atLeast(t.fastifyVsExpressProd),
      ceilings,
    ),
    target('production / ceiling, express', `prod.call.${low}`, `ceiling.call.${low}`, 'reqPerSec', undefined),
    target('production / ceiling, fastify', prodFastify, `ceiling-fastify.call.${low}`, 'reqPerSec', undefined),
    target(
      'production, fastify / SDK 1.x equipped for production',
      prodFastify,
      peerKey(equipped, low),
      'reqPerSec',
      ...atLeast(t.vsEquippedPeer),
      [`fastify.call.${low}`, peerKey(equipped, low)],
    ),
    target(
      `production, fastify / fastest bare peer (${fastest?.name ?? 'none'})`,
      prodFastify,
      peerKey(fastest, low),
      'reqPerSec',
      undefined,
    ),
    equippedP99('express', 'prod'),
    equippedP99('fastify', 'prod-fastify'),
    target(
      'tools/list, production / ceiling, express',
      'prod.list',
      'ceiling.list',
      'reqPerSec',
      ...atLeast(t.prodList),
    ),
    target(
      'tools/list, production / ceiling, fastify',
      'prod-fastify.list',
      'ceiling-fastify.list',
      'reqPerSec',
      ...atLeast(t.prodList),
    ),
  ];
  return { figures, targets, failed: targets.filter((x) => x.result.startsWith('FAIL')).length };
}

/** Prints the block: the figures, then each target with its verdict. */
export function printAdapters(block) {
  console.log('\nadapters (tools/call unless named; median rounds):');
  for (const [key, f] of Object.entries(block.figures))
    console.log(
      `  ${key.padEnd(28)} ${String(f.reqPerSec).padStart(7)} req/s  p99 ${f.p99Ms} ms${f.valid ? '' : ' INVALID'}`,
    );
  for (const x of block.targets) {
    const reach = x.reach === undefined ? '' : `, at most ${x.reach} in this run`;
    const wanted = x.target === undefined ? '' : ` (target ${x.target}${reach})`;
    console.log(`  ${x.name}: ${x.ratio ?? '-'}${wanted} ${x.result}`);
  }
}

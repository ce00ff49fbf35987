// Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF=1 npm run bench):
// top functions by self time, and by total (inclusive) time for frames in our own code.
//   node bench/profile-summary.mjs .bench/prof/<file>.cpuprofile [top=25] [filter=libs/mcp] [skipSeconds=2]
// The first skipSeconds (boot: module loading, schema compilation) are left out.
import { readFileSync } from 'node:fs';

const [file, topArg, filterArg, skipArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.mjs <file.cpuprofile> [top] [filter]');
const TOP = Number(topArg ?? 25);
const FILTER = filterArg ?? 'libs/mcp';
const SKIP_US = Number(skipArg ?? 2) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self samples per node, then time per sample from the deltas.
const selfSamples = new Map();
let t = profile.startTime;
let kept = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (t - profile.startTime < SKIP_US) return;
  kept++;
  selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
});
const totalUs = profile.endTime - profile.startTime - SKIP_US;
const usPerSample = totalUs / kept;

const label = (n) => {
  const f = n.callFrame;
  const url = f.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*\/dist\/bench\//, '');
  return `${f.functionName || '(anonymous)'} ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
};

const self = new Map();
const total = new Map();
let idle = 0;
for (const [id, count] of selfSamples) {
  const n = nodes.get(id);
  if (n.callFrame.functionName === '(idle)') idle += count;
  const key = label(n);
  self.set(key, (self.get(key) ?? 0) + count);
  // Inclusive: count once per distinct label on the stack.
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(nodes.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + count);
  }
}
const busy = kept - idle;
const pct = (c) => `${((c / busy) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `${file}: ${(totalUs / 1e6).toFixed(1)} s, ${kept} samples after ${SKIP_US / 1e6} s, busy ${((busy / kept) * 100).toFixed(0)}% (percentages are of busy time, ${usPerSample.toFixed(0)} us/sample)\n`,
);
console.log(`top ${TOP} by self time:`);
for (const [k, c] of [...self]
  .filter(([k]) => !k.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, TOP))
  console.log(`  ${pct(c)}  ${k}`);
console.log(`\ntop ${TOP} by total time in ${FILTER}:`);
for (const [k, c] of [...total]
  .filter(([k]) => k.includes(FILTER))
  .sort((a, b) => b[1] - a[1])
  .slice(0, TOP))
  console.log(`  ${pct(c)}  ${k}`);

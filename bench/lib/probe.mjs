// Loaded into a bench server with `--import` (bench/account.mjs): counts the event loop's pauses for garbage
// collection (by kind) and its utilisation, and writes them to BENCH_PROBE_FILE when the process gets SIGUSR2. No
// change to the server itself; the observer costs a callback per collection, not per request.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';

const KINDS = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak callbacks' };
const gc = { count: 0, ms: 0, byKind: {} };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? 'other';
    gc.count++;
    gc.ms += entry.duration;
    gc.byKind[kind] = (gc.byKind[kind] ?? 0) + entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  const { idle, active } = performance.eventLoopUtilization();
  writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify({ gc, idle, active, at: performance.now() }));
});

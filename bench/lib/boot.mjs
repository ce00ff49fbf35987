// The boot scenario (#14): module initialisation (NestFactory.create + app.init) of an MCP app with 50 and with
// 1,000 decorated tools, each boot in a fresh process pinned to the server core (bench/fixture/boot.ts), the
// median of BOOT.runs. Target: 1,000 tools in under BOOT.targetMs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runChild } from './servers.mjs';
import { NODE_FLAGS, RESULTS, ROOT } from './settings.mjs';

export const BOOT = { counts: [50, 1000], runs: 3, targetMs: 1000 };
const PROBE = resolve(ROOT, 'dist/bench/bench/fixture/boot.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Boots each size BOOT.runs times; returns { tools: { <count>: { initMs, heapMB, runsMs } }, targetMs, pass }. */
export async function runBoot() {
  const tools = {};
  for (const count of BOOT.counts) {
    const runs = [];
    for (let i = 0; i < BOOT.runs; i++) {
      const r = await runChild(0, [...NODE_FLAGS, PROBE, String(count)], `boot probe (${count} tools)`, undefined, {
        NODE_ENV: 'development',
      });
      if (r.tools !== count) throw new Error(`boot probe registered ${r.tools} tools, expected ${count}`);
      runs.push(r);
    }
    tools[count] = {
      initMs: Math.round(median(runs.map((r) => r.initMs))),
      heapMB: Math.round(median(runs.map((r) => r.heapMB)) * 10) / 10,
      runsMs: runs.map((r) => Math.round(r.initMs)),
    };
  }
  const largest = tools[BOOT.counts.at(-1)];
  return { tools, targetMs: BOOT.targetMs, pass: largest.initMs < BOOT.targetMs };
}

/** One line per size, and the verdict for the largest. */
export function printBoot(boot) {
  for (const [count, t] of Object.entries(boot.tools))
    console.log(
      `  boot with ${count} tools: ${t.initMs} ms of module initialisation (runs ${t.runsMs.join(', ')} ms), heap ${t.heapMB} MB`,
    );
  console.log(`  boot with ${BOOT.counts.at(-1)} tools < ${boot.targetMs} ms: ${boot.pass ? 'PASS' : 'FAIL'}`);
}

/** BENCH_ONLY=boot: the boot block merged into the existing results file. */
export function mergeBoot(block) {
  const prev = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...prev, boot: block }, null, 2) + '\n');
  console.log(`results: ${RESULTS.slice(ROOT.length + 1)} (boot block merged)`);
}

// Runs a load plan: each scenario measured once a round, BENCH_ROUNDS rounds, one line printed per run.
// A scenario: { key, label, server, path, c, body(id), sessions, verify, headers?, ref?, peer? }. `ref` names the
// scenario the printed percentage compares with (measured earlier in the same round). `peer` (bench/lib/peers.mjs)
// marks a peer framework's scenario: if its process has died or its load run breaks, the peer is marked failed with
// the reason and left out of the rounds that follow, and the bench goes on.
import { valid } from './report.mjs';
import { fmtPct } from './tables.mjs';
import { exited, load, rssMB } from './servers.mjs';
import { CALL_BODY, LIST_BODY } from './mcp-client.mjs';
import { LIST_CONNECTIONS, ROUNDS } from './settings.mjs';

/** A tools/call scenario `<key>.call.<c>` on `server` at `c` connections; `extra` sets sessions, headers, ref, ... */
export const callScenario = (key, label, server, c, extra) => ({
  key: `${key}.call.${c}`,
  label: `${label} x${c}`,
  server,
  path: '/mcp',
  c,
  body: CALL_BODY,
  verify: 'call',
  ...extra,
});

/** A tools/list scenario `<key>.list` of every tool on `server`; `extra` as for {@link callScenario}. */
export const listScenario = (key, label, server, extra) => ({
  key: `${key}.list`,
  label: `${label} x${LIST_CONNECTIONS}`,
  server,
  path: '/mcp',
  c: LIST_CONNECTIONS,
  body: LIST_BODY,
  verify: 'list',
  ...extra,
});

/** The ceiling's tools/call scenario at `c` connections (`fake`: session ids it ignores), the reference of a round. */
export const ceilingCall = (ceiling, c, fake) =>
  callScenario('ceiling', 'ceiling tools/call', ceiling, c, { sessions: fake });

/** Adds each run to `runs[key]` (one entry a round) and returns `runs`. */
export async function runPlan(plan, runs = {}) {
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.log(`  round ${round}/${ROUNDS}`);
    for (const p of plan) {
      if (p.peer?.status === 'failed') continue;
      process.stdout.write(`  ${p.label} ...`);
      let r;
      try {
        const { child } = p.server;
        if (p.peer && exited(child))
          throw new Error(`its process has exited (${child.signalCode ?? `code ${child.exitCode}`})`);
        r = await load(p.server, p.path, p.c, p.body('[<id>]'), p.sessions.slice(0, p.c), p.verify, p.headers);
      } catch (error) {
        if (!p.peer) throw error;
        p.peer.status = 'failed';
        p.peer.reason = `under load at x${p.c}: ${error.message.split('\n')[0]}`;
        process.stdout.write(` FAILED (${p.peer.reason})\n`);
        continue;
      }
      // The server's resident memory right after its load (the peers' table reports it).
      r.rssMB = rssMB(p.server.child.pid);
      (runs[p.key] ??= []).push(r);
      // Only a reference measured in this round (a row may come before its reference: see main-plan.mjs).
      const ref = p.ref && runs[p.ref]?.length === runs[p.key].length && runs[p.ref].at(-1);
      const vsRef = ref ? `, ${Math.round((r.reqPerSec / ref.reqPerSec) * 100)}% of ${p.ref}` : '';
      process.stdout.write(
        ` ${Math.round(r.reqPerSec)} req/s (server cpu ${fmtPct(r.serverCpuPct)}, client cpu ${fmtPct(r.clientCpuPct)}${vsRef})${valid(r) ? '' : ` INVALID (non-200 ${r.non200}, errors ${r.errors}, timeouts ${r.timeouts}, mismatches ${r.mismatches})`}\n`,
      );
    }
  }
  return runs;
}

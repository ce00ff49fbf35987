// BENCH_ONLY=<part>: one part of the bench alone, its block merged into the existing bench/results/latest.json
// (the other numbers there stay as they were). run.mjs hands over to runOnly() when BENCH_ONLY is set.
import { limiterDone, limiterLine, mergeLimiter, printLimiter, runLimiter } from './limiter.mjs';
import { mergeAbuse, printAbuse, runAbuse } from './abuse.mjs';
import { mergeReplicas, printReplicas, runReplicas } from './replicas.mjs';
import { mergeTasks, printTasks, runTasks } from './tasks.mjs';
import { mergeBoot, printBoot, runBoot } from './boot.mjs';
import { mergePeers, runPeersOnly } from './peers-only.mjs';
import { mergeRedisOnly, printRedisOnly, runRedisOnly } from './redis-only.mjs';
import { startIssuer } from './issuer.mjs';
import { printPeers } from './tables.mjs';
import { printAdapters } from './adapters-block.mjs';
import { DURATION, ROUNDS, WARMUP } from './settings.mjs';

const rounds = () =>
  `${DURATION}s measured + ${WARMUP}s warm-up per scenario, ${ROUNDS} round(s); servers on core 0, autocannon on core 1\n`;

const PARTS = {
  async limiter() {
    process.stdout.write(limiterLine());
    const limiter = await runLimiter();
    process.stdout.write(limiterDone(limiter));
    printLimiter(limiter);
    mergeLimiter(limiter);
  },
  async abuse() {
    const issuer = await startIssuer();
    try {
      process.stdout.write('  abuse (sessions, batch, floods) ...');
      const abuse = await runAbuse(issuer);
      process.stdout.write(' done\n');
      printAbuse(abuse);
      mergeAbuse(abuse);
    } finally {
      await issuer.stop();
    }
  },
  async replicas() {
    process.stdout.write('  replicas (two against one, through nginx) ...');
    const replicas = await runReplicas();
    process.stdout.write(' done\n');
    printReplicas(replicas);
    mergeReplicas(replicas);
  },
  async tasks() {
    process.stdout.write('  tasks (BullMQ on Redis) ...');
    const tasks = await runTasks();
    process.stdout.write(' done\n');
    printTasks(tasks);
    mergeTasks(tasks);
  },
  async boot() {
    process.stdout.write('  boot (50 and 1,000 decorated tools) ...\n');
    const boot = await runBoot();
    printBoot(boot);
    mergeBoot(boot);
  },
  async peers() {
    console.log(`peers: ${rounds()}`);
    const peers = await runPeersOnly();
    printPeers(peers);
    printAdapters(peers.adapters);
    mergePeers(peers);
  },
  async redis() {
    console.log(`redis stores against memory stores: ${rounds()}`);
    const block = await runRedisOnly();
    printRedisOnly(block);
    mergeRedisOnly(block);
  },
};

/** Runs the part `only` names; an unknown name is an error that lists the known ones. */
export async function runOnly(only) {
  const part = PARTS[only];
  if (!part) throw new Error(`BENCH_ONLY=${only}: only ${Object.keys(PARTS).join(', ')} are supported`);
  await part();
}

// A V8 .cpuprofile's busy samples bucketed by where their code lives (each node_modules package, each folder of the
// library, Node's own modules, native frames by name): bench/prof-buckets.mjs and bench/account.mjs.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Self samples of the profile in `dir` by bucket, counting only the load's own seconds (the last `duration` s before
 * the server stopped, its last half second left out) and leaving idle out: `{ counts: Map<bucket, n>, busy }`.
 */
export function profileBuckets(dir, duration) {
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const p = JSON.parse(readFileSync(resolve(dir, file), 'utf8'));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  const from = p.endTime - (duration + 0.5) * 1e6;
  const to = p.endTime - 0.5e6;
  let t = p.startTime;
  let busy = 0;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i];
    if (t < from || t > to) return;
    const n = nodes.get(id);
    if (n.callFrame.functionName === '(idle)') return;
    busy++;
    const b = bucketOf(n.callFrame);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  });
  return { counts, busy };
}

export function bucketOf({ url, functionName }) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /libs\/mcp\/src\/([^/]+)/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (url.startsWith('node:'))
    return `node: ${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  if (!url) return `native: ${functionName}`;
  return url.split('/').slice(-2).join('/');
}

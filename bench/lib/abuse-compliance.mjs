// Abuse round three (issue #36), the compliance command against hostile servers: `npm run compliance -- --url` pointed
// at a server answering every POST with an endless body, and at one answering every request after 9 s. Reported: the
// command's exit code, how long it ran, its peak RSS, and the bytes the hostile server got out before the command
// stopped reading. Before the fix the first made it buffer about 600 MB per request until its 10 s timeout (1.38 GB
// RSS), and the second made one run take 639 s.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './settings.mjs';

const CLI = resolve(ROOT, 'dist/tools/compliance/compliance/src/compliance.cli.js');
/** The run's deadline in the slow case (the default is 300 s; what is measured is that the deadline holds). */
const DEADLINE_S = 20;
const CHUNK = Buffer.alloc(64 * 1024, 'x');
const MAX_SENT = 4 * 1024 ** 3;

/** A loopback server: `endless` answers each POST with a body that never ends, `slow` answers after 9 s. */
async function hostile(kind) {
  let sent = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (kind === 'slow') {
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 9_000);
      return void res.once('close', () => clearTimeout(timer));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!res.destroyed && sent < MAX_SENT) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    sent: () => sent,
    close: () => (server.closeAllConnections(), new Promise((ok) => server.close(ok))),
  };
}

/** Runs the command against `url`; resolves with its exit code, seconds and peak RSS (MB, from VmHWM). */
function runCompliance(url, extra = []) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, '--url', url, '--token', 'x', ...extra], { stdio: 'ignore' });
    let peak = 0;
    const sample = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
      } catch {
        // the process has just ended
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(sample);
      done({ exit: code, seconds: Math.round((performance.now() - started) / 100) / 10, peakRssMB: Math.round(peak) });
    });
  });
}

/** Runs both cases and returns the `compliance` part of round three. */
export async function runComplianceAbuse() {
  // As `npm run compliance` builds it (scripts/tool.mjs: nest build, when something it reads changed).
  spawnSync(process.execPath, [resolve(ROOT, 'scripts/tool.mjs'), '--build-only', 'compliance'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const endless = await hostile('endless');
  const big = { ...(await runCompliance(endless.url)), serverSentMB: Math.round(endless.sent() / 1e6) };
  await endless.close();
  const slow = await hostile('slow');
  const late = await runCompliance(slow.url, ['--deadline', String(DEADLINE_S)]);
  await slow.close();
  return {
    endless: big,
    slow: { ...late, deadlineS: DEADLINE_S },
    checks: {
      complianceAnswersCapped: big.exit === 2 && big.peakRssMB < 200 ? 'PASS' : 'FAIL',
      complianceRunDeadline: late.exit === 2 && late.seconds < DEADLINE_S + 10 ? 'PASS' : 'FAIL',
    },
  };
}

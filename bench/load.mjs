// One load measurement, run by run.mjs in its own process (pinned to core 1 with taskset).
// Input: one JSON argument. Output: one JSON line on stdout with the measured run (warm-up discarded).
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2]);
// cfg: { url, path, connections, duration, warmup, body, headers, sessions, verify }

// Each connection is one MCP client with its own session; ids are unique per request ([<id>]).
function options(duration) {
  let next = 0;
  return {
    url: cfg.url + cfg.path,
    method: 'POST',
    connections: cfg.connections,
    duration,
    timeout: 10,
    headers: cfg.headers,
    body: cfg.body,
    idReplacement: true,
    setupClient: (client) => {
      const session = cfg.sessions[next++ % cfg.sessions.length];
      client.setHeaders({ ...cfg.headers, 'mcp-session-id': session });
    },
    // Every answer must be a JSON-RPC success: no `error` member, no `isError: true` tool result.
    verifyBody: (body) => {
      const text = typeof body === 'string' ? body : String(body);
      if (!text.startsWith('{"jsonrpc":"2.0"') || !text.includes('"result":')) return false;
      if (text.includes('"isError":true')) return false;
      if (cfg.verify === 'list' && !text.includes('"tools":[')) return false;
      return !/"error":\{"code":/.test(text);
    },
  };
}

function summary(r) {
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const non200 = Object.entries(statuses).reduce((n, [code, count]) => n + (code === '200' ? 0 : count), 0);
  return {
    connections: cfg.connections,
    durationS: r.duration,
    requestsTotal: r.requests.total,
    reqPerSec: r.requests.average,
    reqPerSecStddev: r.requests.stddev,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
    bytesPerReq: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    statuses,
    non200,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
  };
}

const warm = summary(await autocannon(options(cfg.warmup)));
// Tell run.mjs the measured phase starts (it samples the server's CPU time now and at our exit).
process.stdout.write('PHASE measure\n');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const measured = summary(await autocannon(options(cfg.duration)));
const cpu = process.cpuUsage(cpu0);
// Share of one core the load generator used: near 100% means the client, not the server, is the limit.
measured.clientCpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100;
measured.warmup = { requestsTotal: warm.requestsTotal, non200: warm.non200, errors: warm.errors, mismatches: warm.mismatches };
process.stdout.write(JSON.stringify(measured) + '\n');

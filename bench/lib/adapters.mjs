// The second HTTP adapter (#27): the same servers as the main plan's ceiling, `mcp` (bare) and `mcp-prod`
// (production configuration), on Nest's Fastify adapter, measured in the same rounds as their Express twins.
// run.mjs starts them (startFastifyServers) and places their scenarios (fastifyScenarios) next to the Express ones;
// adapters-block.mjs judges the #27 targets.
import { openSession } from './mcp-client.mjs';
import { callScenario, listScenario } from './plan.mjs';
import { startCeiling, startServer } from './servers.mjs';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONNECTIONS, LIST_CONNECTIONS, TMP, TOOL_COUNT, productionEnv } from './settings.mjs';

const FASTIFY = { MCP_HTTP_ADAPTER: 'fastify' };

/**
 * Starts the Fastify ceiling (serving our captured answers), our bare server and our production configuration on
 * Fastify (its log lines to a file of its own, traces to `otlpUrl`), and opens their sessions; `bearer` is the issuer's
 * Authorization header.
 */
export async function startFastifyServers({ callText, listText, jwksUri, otlpUrl, bearer }) {
  const servers = {};
  const logFile = resolve(TMP, 'prod-fastify.log');
  writeFileSync(logFile, '');
  const prod = { jwksUri, logFile, otlpUrl };
  try {
    servers.ceiling = await startCeiling(callText, listText, 'fastify');
    servers.mcp = await startServer('mcp-fastify', 'mcp', {
      NODE_ENV: 'development',
      BENCH_AUTH: 'off',
      BENCH_LOGS: 'off',
      ...FASTIFY,
    });
    servers.prod = await startServer('mcp-prod-fastify', 'mcp', { ...productionEnv(prod), ...FASTIFY });
    const open = async (url, headers, n) => {
      const ids = [];
      for (let i = 0; i < n; i++) ids.push(await openSession(url, headers));
      return ids;
    };
    servers.sessions = {
      mcp: await open(servers.mcp.url, {}, Math.max(...CONNECTIONS)),
      prod: await open(servers.prod.url, bearer, Math.max(...CONNECTIONS, LIST_CONNECTIONS)),
    };
    return servers;
  } catch (error) {
    await stopFastifyServers(servers);
    throw error;
  }
}

export const stopFastifyServers = (s) => Promise.all([s?.ceiling?.stop(), s?.mcp?.stop(), s?.prod?.stop()]);

/**
 * The Fastify scenarios at `c` connections, by where the main plan places them: `ceiling` right after the Express
 * ceiling, `bare` after our bare Express server, `prod` after our Express production configuration. `fake`: session
 * ids the ceiling ignores; `authHeaders`: the production servers' headers.
 */
export function fastifyScenarios(s, c, fake, authHeaders) {
  const scenario = (key, label, server, extra) => callScenario(key, label, server, c, extra);
  return {
    ceiling: scenario('ceiling-fastify', 'ceiling (fastify) tools/call', s.ceiling, { sessions: fake }),
    bare: scenario('fastify', 'mcp tools/call (fastify)', s.mcp, {
      sessions: s.sessions.mcp,
      ref: `ceiling-fastify.call.${c}`,
    }),
    prod: scenario('prod-fastify', 'mcp tools/call (production, fastify)', s.prod, {
      sessions: s.sessions.prod,
      headers: authHeaders,
      ref: `ceiling-fastify.call.${c}`,
    }),
  };
}

/** tools/list of every tool on the Fastify ceiling and our Fastify production configuration. */
export function fastifyListScenarios(s, fake, authHeaders) {
  return [
    listScenario('ceiling-fastify', `ceiling (fastify) list(${TOOL_COUNT})`, s.ceiling, {
      sessions: fake,
      path: '/mcp-list',
    }),
    listScenario('prod-fastify', `mcp tools/list(${TOOL_COUNT}) (production, fastify)`, s.prod, {
      sessions: s.sessions.prod,
      headers: authHeaders,
      ref: 'ceiling-fastify.list',
    }),
  ];
}

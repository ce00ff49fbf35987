// The full bench's load plan (run.mjs): per connection count the ceiling, then each of our servers and the peers,
// in an order that puts every ratio's two sides next to each other in time; then tools/list. A scenario's fields are
// described in plan.mjs.
import { MODERN_CALL_BODY, MODERN_HEADERS } from './mcp-client.mjs';
import { peerScenarios } from './peers.mjs';
import { fastifyListScenarios, fastifyScenarios } from './adapters.mjs';
import { callScenario, ceilingCall, listScenario } from './plan.mjs';
import { CONNECTIONS, TOOL_COUNT } from './settings.mjs';

/**
 * `servers`: { ceiling, mcp, mcpAuth, mcpRedis, mcpProd, mcpQuiet }; `sessions`: their session ids
 * ({ fake, mcp, auth, redis, prod, quiet }); `authHeaders`: the Bearer headers of the authenticated servers;
 * `fastify`: the Fastify twins (adapters.mjs), each placed right after its Express one.
 */
export function mainPlan(servers, sessions, authHeaders, peers, fastify) {
  const { ceiling, mcp, mcpAuth, mcpRedis, mcpProd, mcpQuiet } = servers;
  const call = (key, label, server, c, ids, extra = {}) =>
    callScenario(key, label, server, c, { sessions: ids, ...extra });
  const list = (key, label, server, ids, extra = {}) => listScenario(key, label, server, { sessions: ids, ...extra });
  return [
    ...CONNECTIONS.flatMap((c) => {
      const f = fastifyScenarios(fastify, c, sessions.fake, authHeaders);
      return [
        ceilingCall(ceiling, c, sessions.fake),
        f.ceiling,
        // The two rows with a target against `mcp` sit on either side of it (its ratio is taken round by round).
        call('redis', 'mcp tools/call (redis)', mcpRedis, c, sessions.redis, { ref: `mcp.call.${c}` }),
        call('mcp', 'mcp tools/call', mcp, c, sessions.mcp),
        f.bare,
        call('auth', 'mcp tools/call (auth)', mcpAuth, c, sessions.auth, {
          headers: authHeaders,
          ref: `mcp.call.${c}`,
        }),
        // The same call, stateless (2026-07-28): no session, `_meta` and mirrored headers on every request.
        call('modern', 'mcp tools/call (2026-07-28)', mcp, c, [undefined], {
          body: MODERN_CALL_BODY,
          headers: MODERN_HEADERS,
          ref: `mcp.call.${c}`,
        }),
        call('prod', 'mcp tools/call (production)', mcpProd, c, sessions.prod, {
          headers: authHeaders,
          ref: `ceiling.call.${c}`,
        }),
        f.prod,
        // Back to back with the production configuration: the logs' cost is its ratio to this, round by round.
        call('prodquiet', 'mcp tools/call (production, no log lines)', mcpQuiet, c, sessions.quiet, {
          headers: authHeaders,
          ref: `prod.call.${c}`,
        }),
        // The peers right after our production configuration, against the same round's ceiling.
        ...peerScenarios(peers, c),
      ];
    }),
    list('ceiling', `ceiling list(${TOOL_COUNT})`, ceiling, sessions.fake, { path: '/mcp-list' }),
    ...fastifyListScenarios(fastify, sessions.fake, authHeaders),
    list('mcp', `mcp tools/list(${TOOL_COUNT})`, mcp, sessions.mcp),
    list('prod', `mcp tools/list(${TOOL_COUNT}) (production)`, mcpProd, sessions.prod, {
      headers: authHeaders,
      ref: 'ceiling.list',
    }),
  ];
}

// The check each peer passes before it is measured (bench/lib/peers.mjs): tools/list gives our 50 tools (names,
// declared descriptions and input schemas compared key by key; every page followed), and tools/call of `echo`
// answers 'hello' without `isError`, as JSON or as the one message of an SSE stream. Also the requests of each
// protocol era a peer is loaded with.
import { isEchoAnswer, parseAnswer } from './answers.mjs';
import {
  BASE_HEADERS,
  CALL_BODY,
  LIST_BODY,
  MODERN_CALL_BODY,
  MODERN_HEADERS,
  newId,
  openSession,
  post,
} from './mcp-client.mjs';
import { TOOL_COUNT } from './settings.mjs';

// The requests of each era: the load's call and headers (the same bodies as ours), and tools/list for the check.
const MODERN_META = JSON.parse(MODERN_CALL_BODY('check')).params._meta;
const { 'mcp-name': _name, ...MODERN_LIST_HEADERS } = { ...MODERN_HEADERS, 'mcp-method': 'tools/list' };
export const REQUESTS = {
  '2025-11-25': {
    call: CALL_BODY,
    headers: BASE_HEADERS,
    list: (id, cursor) =>
      cursor === undefined
        ? LIST_BODY(id)
        : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { cursor } }),
    listHeaders: BASE_HEADERS,
  },
  '2026-07-28': {
    call: MODERN_CALL_BODY,
    headers: MODERN_HEADERS,
    list: (id, cursor) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        params: { ...(cursor && { cursor }), _meta: MODERN_META },
      }),
    listHeaders: MODERN_LIST_HEADERS,
  },
};

/** `promise`, or a rejection naming `what` after `ms` (a peer that never answers must not hang the bench). */
export function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A JSON Schema as canonical text: keys sorted, the top-level `$schema` (dialect) left out. */
function canonical(schema) {
  const sort = (v) =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort(v[k])]),
          )
        : v;
  const { $schema: _dialect, ...rest } = schema ?? {};
  return JSON.stringify(sort(rest));
}

/** Throws unless `tools` are ours: the same names, declared descriptions and input schemas. */
function compareTools(tools, reference) {
  const theirs = new Map(tools.map((t) => [t.name, t]));
  const missing = reference.filter((t) => !theirs.has(t.name)).map((t) => t.name);
  const ours = new Set(reference.map((t) => t.name));
  const extra = tools.filter((t) => !ours.has(t.name)).map((t) => t.name);
  if (tools.length !== TOOL_COUNT || missing.length || extra.length)
    throw new Error(
      `tools/list: ${tools.length} tools (expected our ${TOOL_COUNT})${missing.length ? `, missing ${missing.slice(0, 3).join(', ')}` : ''}${extra.length ? `, extra ${extra.slice(0, 3).join(', ')}` : ''}`,
    );
  for (const t of reference) {
    const peer = theirs.get(t.name);
    // Ours appends a paragraph on the annotations ("Read-only: no side effects.") to the declared description.
    if (peer.description !== t.description && !t.description.startsWith(`${peer.description}\n\n`))
      throw new Error(`tools/list: ${t.name} has another description: ${JSON.stringify(peer.description)}`);
    if (canonical(peer.inputSchema) !== canonical(t.inputSchema))
      throw new Error(
        `tools/list: ${t.name} has another input schema: ${canonical(peer.inputSchema)} (ours ${canonical(t.inputSchema)})`,
      );
  }
}

/** The check before measuring: our 50 tools listed (following nextCursor), and the echo call answered. */
export async function checkPeer(peer, reference) {
  const url = `${peer.server.url}/mcp`;
  const req = REQUESTS[peer.era];
  const session = peer.stateful ? await openSession(peer.server.url, peer.auth) : undefined;
  const withSession = (headers) => ({ ...headers, ...peer.auth, ...(session ? { 'mcp-session-id': session } : {}) });
  const tools = [];
  let pages = 0;
  let cursor;
  do {
    const list = await post(url, req.list(newId(), cursor), withSession(req.listHeaders));
    const result = parseAnswer(list.text)?.result;
    if (list.status !== 200 || !Array.isArray(result?.tools))
      throw new Error(`tools/list answered ${list.status}: ${list.text.slice(0, 200)}`);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 20);
  compareTools(tools, reference);
  const call = await post(url, req.call(newId()), withSession(req.headers));
  if (call.status !== 200 || !isEchoAnswer(parseAnswer(call.text)))
    throw new Error(`tools/call of echo answered ${call.status}: ${call.text.slice(0, 200)}`);
  const sse = (call.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return { tools: tools.length, pages, schemasMatch: true, echo: 'hello', answers: sse ? 'SSE' : 'JSON' };
}

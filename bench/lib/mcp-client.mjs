// The bench's own MCP requests (outside autocannon): request ids and bodies, sessions, and the check
// that mcp-auth really enforces authentication before it is measured.
import { randomBytes } from 'node:crypto';
import { forgeToken } from './issuer.mjs';
import { PROTOCOL } from './settings.mjs';

// Request ids in the format autocannon gives [<id>] (a 22-character url-safe random prefix, '-', a
// 10-digit counter), so an answer captured here is as long as one under load.
const ID_PREFIX = randomBytes(16).toString('base64url');
let idCount = 0;
export const newId = () => `${ID_PREFIX}-${String(idCount++).padStart(10, '0')}`;

export const BASE_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
};
export const CALL_BODY = (id) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`;
// The same call as a stateless 2026-07-28 request: the per-request `_meta` envelope, and the headers mirroring it.
export const MODERN_CALL_BODY = (id) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`;
export const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};
export const LIST_BODY = (id) => `{"jsonrpc":"2.0","id":"${id}","method":"tools/list","params":{}}`;
const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
});

export async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** initialize + notifications/initialized; returns the session id. */
export async function openSession(url, extraHeaders = {}) {
  const init = await post(`${url}/mcp`, INITIALIZE_BODY, { ...BASE_HEADERS, ...extraHeaders });
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`initialize answered ${init.status}: ${init.text}`);
  const done = await post(`${url}/mcp`, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
    ...BASE_HEADERS,
    ...extraHeaders,
    'mcp-session-id': id,
  });
  if (done.status !== 202) throw new Error(`notifications/initialized answered ${done.status}: ${done.text}`);
  return id;
}

/**
 * Before measuring mcp-auth: the auth path must really be on. No token and a forged signature get
 * 401 (with a Bearer challenge); the valid token gets a tools/call answer. Throws otherwise.
 */
export async function checkAuth(url, session, bearer) {
  const noToken = await post(`${url}/mcp`, INITIALIZE_BODY, BASE_HEADERS);
  const challenge = noToken.headers.get('www-authenticate') ?? '';
  if (noToken.status !== 401 || !challenge.startsWith('Bearer '))
    throw new Error(
      `auth check: a request without a token answered ${noToken.status} (${challenge || 'no WWW-Authenticate'}), expected 401`,
    );
  const sessionNoToken = await post(`${url}/mcp`, CALL_BODY(newId()), { ...BASE_HEADERS, 'mcp-session-id': session });
  if (sessionNoToken.status !== 401)
    throw new Error(
      `auth check: tools/call on a session without a token answered ${sessionNoToken.status}, expected 401`,
    );
  const forgedToken = await forgeToken();
  const forged = await post(`${url}/mcp`, CALL_BODY(newId()), {
    ...BASE_HEADERS,
    authorization: `Bearer ${forgedToken}`,
    'mcp-session-id': session,
  });
  if (forged.status !== 401) throw new Error(`auth check: a forged token answered ${forged.status}, expected 401`);
  const ok = await post(`${url}/mcp`, CALL_BODY(newId()), { ...BASE_HEADERS, ...bearer, 'mcp-session-id': session });
  if (ok.status !== 200 || JSON.parse(ok.text).result?.content?.[0]?.text !== 'hello')
    throw new Error(`auth check: tools/call with the token failed: ${ok.status} ${ok.text}`);
  return {
    noToken: { status: noToken.status, challenge },
    sessionNoToken: sessionNoToken.status,
    forged: forged.status,
    valid: ok.status,
  };
}

/** POSTs one JSON-RPC body to an MCP endpoint as a 2025-11-25 client, with an optional Bearer token. */
export function mcpPost(
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** Opens a session as a 2025-11-25 client (initialize, then notifications/initialized); returns its id. */
export async function openMcpSession(
  url: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
  };
  const res = await mcpPost(url, init, token, headers);
  if (res.status !== 200) throw new Error(`initialize answered ${res.status}: ${await res.text()}`);
  const id = res.headers.get('mcp-session-id')!;
  await mcpPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, token, { 'mcp-session-id': id });
  return id;
}

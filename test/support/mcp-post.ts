/** POSTs one JSON-RPC body to an MCP endpoint as a 2025-11-25 client, with an optional Bearer token. */
export function mcpPost(url: string, body: unknown, token?: string, headers: Record<string, string> = {}): Promise<Response> {
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

import { RunningServer } from './server-process';
import { mcpPost } from './mcp-post';

const V = '2025-11-25';

/**
 * What the authentication suites do to a running desk: post, initialize a session, try to create a uniquely named
 * ticket (the write a refused token must never cause) and look for it. `server` and `session` are read at call
 * time, so a suite may replace its session between tests.
 */
export function authProbe(current: () => { server: RunningServer; session: string }) {
  let marker = 0;
  const post = (body: unknown, token: string | undefined, headers: Record<string, string> = {}, path = '') =>
    mcpPost(`${current().server.url}${path}`, body, token, headers);
  const initialize = async (token: string) => {
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'auth-e2e', version: '1' } },
      },
      token,
    );
    expect(res.status).toBe(200);
    const id = res.headers.get('mcp-session-id')!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, token, { 'mcp-session-id': id });
    return id;
  };
  /** Tries to create a uniquely named ticket; returns the response and the title to look for. */
  const attemptCreate = async (token: string | undefined, headers: Record<string, string> = {}, path = '') => {
    const title = `auth probe ${++marker} ${Date.now()}`;
    const args = {
      title,
      description: 'probe',
      category: 'access',
      priority: 'low',
      requester: 'p@example.com',
      idempotencyKey: `probe-key-${marker}-${Date.now()}`,
    };
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_ticket', arguments: args } },
      token,
      { 'mcp-session-id': current().session, ...headers },
      path,
    );
    return { res, title };
  };
  const ticketExists = async (title: string) => {
    const res = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: title } } },
      current().server.token,
      { 'mcp-session-id': current().session },
    );
    return (
      ((await res.json()) as { result: { structuredContent: { count: number } } }).result.structuredContent.count > 0
    );
  };
  return { post, initialize, attemptCreate, ticketExists };
}

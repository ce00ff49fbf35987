import { RunningServer, startDeskHttp } from './support/server-process';
import { TestIssuer } from './support/test-issuer';
import { authProbe } from './support/auth-probe';

/**
 * Authorization by scope (@McpScopes) against a real JWKS issuer: lists show a caller what its scopes allow,
 * completion and subscriptions are checked too, and a call without the scope gets 403 insufficient_scope and
 * never runs.
 */
describe('authorization by scope (@McpScopes)', () => {
  let server: RunningServer;
  let issuer: TestIssuer;
  let session: string;
  const { post, initialize, attemptCreate, ticketExists } = authProbe(() => ({ server, session }));

  beforeAll(async () => {
    server = await startDeskHttp();
    issuer = server.issuer!;
    session = await initialize(server.token!);
  });
  afterAll(() => server.stop());

  const list = async (token: string, method: string, key: string) => {
    const sid = await initialize(token);
    const res = await post({ jsonrpc: '2.0', id: 4, method, params: {} }, token, { 'mcp-session-id': sid });
    return ((await res.json()) as { result: Record<string, { name?: string; uri?: string }[]> }).result[key];
  };

  it('lists only what the caller may call', async () => {
    const reader = await issuer.mint({ scope: 'tickets:read', sub: 'reader' });
    expect((await list(reader, 'tools/list', 'tools')).map((t) => t.name)).toEqual([
      'search_tickets',
      'get_ticket',
      'export_tickets',
      'draft_reply',
    ]);
    const writer = await issuer.mint({ scope: 'tickets:read tickets:write', sub: 'writer' });
    expect(await list(writer, 'tools/list', 'tools')).toHaveLength(6);
    const nobody = await issuer.mint({ scope: '', sub: 'nobody' });
    expect(await list(nobody, 'tools/list', 'tools')).toEqual([]);
    // The corporate built-ins need no scope: use://auth and use://http-headers tell a caller how to get
    // one, agent_brief/agent_prompt and their mirrors tell an agent whether to use this server at all.
    expect((await list(nobody, 'prompts/list', 'prompts')).map((p) => p.name)).toEqual(['agent_brief', 'agent_prompt']);
    expect((await list(nobody, 'resources/list', 'resources')).map((r) => r.uri)).toEqual([
      'use://auth',
      'use://http-headers',
      'desk://agent/brief',
      'desk://agent/prompt',
      'project://version',
      'doc://readme',
    ]);
  });

  it('applies scopes to completion and subscriptions too', async () => {
    const nobody = await issuer.mint({ scope: '', sub: 'nobody-2' });
    const sid = await initialize(nobody);
    const completion = await post(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: 'triage_ticket' }, argument: { name: 'ticketId', value: 'HD' } },
      },
      nobody,
      { 'mcp-session-id': sid },
    );
    expect(completion.status).toBe(403);
    expect(completion.headers.get('www-authenticate')).toContain('scope="tickets:read"');
    const subscribe = await post(
      { jsonrpc: '2.0', id: 8, method: 'resources/subscribe', params: { uri: 'desk://tickets/HD-3' } },
      nobody,
      { 'mcp-session-id': sid },
    );
    expect(subscribe.status).toBe(403);
  });

  it('refuses a call without the scope with 403 insufficient_scope naming it, and the tool does not run', async () => {
    const reader = await issuer.mint({ scope: 'tickets:read' });
    session = await initialize(reader);
    const { res, title } = await attemptCreate(reader);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="desk", resource_metadata="[^"]+", error="insufficient_scope", error_description="[^"]+", scope="tickets:read tickets:write"$/,
    );
    expect(await res.json()).toMatchObject({
      id: 1,
      error: {
        code: -32001,
        data: { reason: 'insufficient_scope', requiredScopes: ['tickets:read', 'tickets:write'] },
      },
    });
    session = await initialize(server.token!);
    expect(await ticketExists(title)).toBe(false);
  });
});

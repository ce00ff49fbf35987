import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';

const MIME = 'text/html;profile=mcp-app';
const BOARD_URI = 'ui://desk/board';
// Written out rather than imported from the fixture: the replicas must serve what the author declared.
const BOARD_UI = {
  csp: { connectDomains: ['https://api.example.com'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
};
const TOOLS_UI = {
  show_board: { resourceUri: BOARD_URI, visibility: ['model', 'app'] },
  refresh_board: { resourceUri: BOARD_URI, visibility: ['app'] },
};

type Mode = 'legacy' | { pin: '2026-07-28' };

/** What a client sees of the desk's view: the read content, the listed resource, and the linked tools' `_meta.ui`. */
async function viewAsSeen(client: Client) {
  const { contents } = await client.readResource({ uri: BOARD_URI });
  const { resources } = await client.listResources();
  const { tools } = await client.listTools();
  const ui = tools.flatMap((t) =>
    (t._meta as { ui?: unknown })?.ui ? [[t.name, (t._meta as { ui: unknown }).ui]] : [],
  );
  return { contents, listed: resources.find((r) => r.uri === BOARD_URI), toolsUi: Object.fromEntries(ui) };
}

/**
 * MCP Apps across two desk replicas behind one Redis session store (docs/apps.md): each replica compiles the same
 * view at boot, so both answer the same HTML, `_meta.ui` and tools' `_meta.ui` in each era, and a 2025 session opened
 * on one replica reads the view on the other.
 */
describe('MCP Apps views across replicas on Redis', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let replicas: RunningServer[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    replicas = await startReplicas(2, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      DESK_APP_VIEWS: 'on',
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stopReplicas(replicas);
    await issuer?.close();
    await cleanup();
  });

  async function connect(url: string, mode: Mode, session?: { sessionId: string; protocolVersion: string }) {
    const token = await issuer.mint({ sub: 'apps-replicas' });
    const client = new Client({ name: 'apps-replicas-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      authProvider: { token: async () => token },
      ...session,
    });
    await client.connect(transport);
    return { client, transport };
  }

  it.each<[string, Mode]>([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', { pin: '2026-07-28' }],
  ])('serves the same view and tools _meta.ui from each replica, in a %s session', async (version, mode) => {
    const seen = [];
    for (const replica of replicas) {
      const { client } = await connect(replica.url, mode);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect((client.getServerCapabilities() as { extensions?: unknown }).extensions).toEqual({
        'io.modelcontextprotocol/ui': { mimeTypes: [MIME] },
      });
      seen.push(await viewAsSeen(client));
    }
    expect(seen[0].contents).toEqual([
      { uri: BOARD_URI, mimeType: MIME, text: expect.stringContaining('<div id="board">'), _meta: { ui: BOARD_UI } },
    ]);
    expect(seen[0].listed).toEqual({
      uri: BOARD_URI,
      name: 'board',
      description: 'The ticket board.',
      mimeType: MIME,
      _meta: { ui: BOARD_UI },
    });
    expect(seen[0].toolsUi).toEqual(TOOLS_UI);
    expect(seen[1]).toEqual(seen[0]);
  });

  it('reads the view on the other replica in a 2025 session opened on the first', async () => {
    const { client: first, transport } = await connect(replicas[0].url, 'legacy');
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeTruthy();
    const { contents: here } = await first.readResource({ uri: BOARD_URI });
    const { client: second, transport: elsewhere } = await connect(replicas[1].url, 'legacy', {
      sessionId,
      protocolVersion: '2025-11-25',
    });
    // No initialize on the second replica: the session it serves is the one the first stored in Redis.
    expect(elsewhere.sessionId).toBe(sessionId);
    const { contents: there } = await second.readResource({ uri: BOARD_URI });
    expect(there).toEqual(here);
    expect(there[0]).toMatchObject({ mimeType: MIME, _meta: { ui: BOARD_UI } });
    // The resumed client skipped initialize, so it knows no server capabilities: tools/list is sent as such.
    const { tools } = await second.request({ method: 'tools/list', params: {} });
    expect(tools.find((t) => t.name === 'refresh_board')?._meta).toEqual({ ui: TOOLS_UI.refresh_board });
    // The second replica did look the session up: one it never stored is refused.
    const { client: stranger } = await connect(replicas[1].url, 'legacy', {
      sessionId: `${sessionId}-unknown`,
      protocolVersion: '2025-11-25',
    });
    await expect(stranger.readResource({ uri: BOARD_URI })).rejects.toThrow(/404|[Ss]ession/);
  });
});

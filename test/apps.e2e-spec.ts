import { INestApplication } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startInProcess } from './support/in-process-app';
import { AppsFixtureModule, BOARD_HTML, BOARD_URI } from './fixtures/apps-fixture.module';

const MIME = 'text/html;profile=mcp-app';
const VIEW_UI = {
  csp: { connectDomains: ['https://api.example.com'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
};

/**
 * MCP Apps (io.modelcontextprotocol/ui, ext-apps 2026-01-26), server side: a fixture with one view and two linked
 * tools, driven by the official client 2.4 in both eras. The capability, the tools' `_meta.ui` and the view's
 * resource are the same to a 2025-11-25 session and to 2026-07-28 requests, on Express (jest project `e2e`) and on
 * Fastify (`e2e-fastify`).
 */
describe('MCP Apps: a view and its tools', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startInProcess(AppsFixtureModule));
  });
  afterAll(() => app?.close());

  it('serves on the adapter this run asks for', () => {
    // jest's e2e-fastify project sets MCP_HTTP_ADAPTER=fastify; e2e leaves the default.
    expect(app.getHttpAdapter().getType()).toBe(process.env.MCP_HTTP_ADAPTER ?? 'express');
  });

  describe.each([
    ['2025-11-25', 'legacy' as const],
    ['2026-07-28', { pin: '2026-07-28' }],
  ])('in a %s session', (version, mode) => {
    let client: Client;

    beforeAll(async () => {
      client = new Client({ name: 'apps-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    });
    afterAll(() => client?.close());

    it('declares the ui extension with its mimeTypes', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const caps = client.getServerCapabilities() as Record<string, unknown>;
      expect(caps.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } });
      expect(caps.resources).toBeDefined();
    });

    it('lists both tools with _meta.ui (the app-only one too: the host hides it from the model)', async () => {
      const { tools } = await client.listTools();
      const ui = Object.fromEntries(tools.map((t) => [t.name, (t._meta as { ui?: unknown } | undefined)?.ui]));
      expect(ui).toEqual({
        show_board: { resourceUri: BOARD_URI, visibility: ['model', 'app'] },
        refresh_board: { resourceUri: BOARD_URI, visibility: ['app'] },
      });
    });

    it('lists the view with its mimeType and _meta.ui', async () => {
      const { resources } = await client.listResources();
      expect(resources.find((r) => r.uri === BOARD_URI)).toEqual({
        uri: BOARD_URI,
        name: 'board',
        description: 'The ticket board.',
        mimeType: MIME,
        _meta: { ui: VIEW_UI },
      });
    });

    it('reads the view: its HTML, mimeType and _meta.ui', async () => {
      const { contents } = await client.readResource({ uri: BOARD_URI });
      expect(contents).toEqual([{ uri: BOARD_URI, mimeType: MIME, text: BOARD_HTML, _meta: { ui: VIEW_UI } }]);
    });
  });
});

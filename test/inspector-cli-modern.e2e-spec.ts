import { inspectorHome, inspectorResult as ok, runInspector } from './support/inspector-cli';
import { DESK_MAIN, DESK_TOOLS_BY_NAME, RunningServer, startDeskHttp } from './support/server-process';

/** The MCP Inspector CLI with `--protocol-era modern` (2026-07-28, stateless) against the built desk. */
describe('desk driven by the MCP Inspector CLI in the modern era (--protocol-era modern)', () => {
  let home: ReturnType<typeof inspectorHome>;
  beforeAll(() => {
    home = inspectorHome();
  });
  afterAll(() => home.cleanup());

  describe('over Streamable HTTP, authentication on', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_PAGE_SIZE: '2' });
    });
    afterAll(() => server.stop());

    const inspect = (...args: string[]) =>
      runInspector(
        [
          server.url,
          '--header',
          `Authorization: Bearer ${server.token}`,
          '--protocol-era',
          'modern',
          ...args,
          '--format',
          'json',
          '-q',
          '--stored-auth-only',
        ],
        home.home,
      );

    it('discovers the server on 2026-07-28', async () => {
      expect(ok(await inspect('--method', 'initialize'))).toMatchObject({
        serverInfo: { name: 'desk', version: '0.1.0' },
        protocolVersion: '2026-07-28',
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
      });
    });

    it('lists the tools across pages in name order, and calls one', async () => {
      const list = ok(await inspect('--method', 'tools/list', '--strict'));
      expect(list.tools.map((t: { name: string }) => t.name)).toEqual(DESK_TOOLS_BY_NAME);
      const found = ok(
        await inspect('--method', 'tools/call', '--tool-name', 'search_tickets', '--tool-args-json', '{"query":"vpn"}'),
      );
      expect(found.structuredContent.tickets.length).toBeGreaterThan(0);
    });

    it('reads a resource, gets a prompt, and exits 5 on a tool error', async () => {
      const read = ok(await inspect('--method', 'resources/read', '--uri', 'desk://tickets/HD-3'));
      expect(JSON.parse(read.contents[0].text)).toMatchObject({ id: 'HD-3' });
      const prompt = ok(
        await inspect('--method', 'prompts/get', '--prompt-name', 'triage_ticket', '--prompt-args', 'ticketId=HD-2'),
      );
      expect(prompt.messages[0].content.text).toContain('HD-2');
      const failed = await inspect(
        '--method',
        'tools/call',
        '--tool-name',
        'get_ticket',
        '--tool-args-json',
        '{"id":"HD-999"}',
      );
      expect(failed.code).toBe(5);
      expect(failed.error).toMatchObject({ code: 'tool_is_error' });
    });
  });

  describe('over stdio', () => {
    const inspect = (...args: string[]) =>
      runInspector(
        ['--protocol-era', 'modern', ...args, '--format', 'json', '-q', '--', process.execPath, DESK_MAIN, '--stdio'],
        home.home,
      );

    it('lists the tools in name order and calls one', async () => {
      const list = ok(await inspect('--method', 'tools/list'));
      expect(list.tools.map((t: { name: string }) => t.name)).toEqual(DESK_TOOLS_BY_NAME);
      const ticket = ok(
        await inspect('--method', 'tools/call', '--tool-name', 'get_ticket', '--tool-args-json', '{"id":"HD-4"}'),
      );
      expect(ticket.structuredContent).toMatchObject({ id: 'HD-4', status: 'open' });
    });
  });
});

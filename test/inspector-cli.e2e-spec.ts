import { inspectorHome, inspectorResult as ok, runInspector } from './support/inspector-cli';
import { DESK_MAIN, DESK_TOOLS, RunningServer, startDeskHttp } from './support/server-process';

/** The MCP Inspector CLI (`mcp-inspector --cli`, a child process per call) against the built desk. */
describe('desk driven by the MCP Inspector CLI', () => {
  let home: ReturnType<typeof inspectorHome>;
  beforeAll(() => {
    home = inspectorHome();
  });
  afterAll(() => {
    home.cleanup();
  });

  describe('over Streamable HTTP', () => {
    let server: RunningServer;
    // Small pages, so every list the CLI prints has been stitched together from several cursors.
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_PAGE_SIZE: '2' });
    });
    afterAll(async () => {
      await server.stop();
    });

    // The token from the test issuer goes as a static header; --stored-auth-only keeps the CLI from ever starting
    // OAuth.
    const inspect = (...args: string[]) =>
      runInspector(
        [
          server.url,
          '--header',
          `Authorization: Bearer ${server.token}`,
          ...args,
          '--format',
          'json',
          '-q',
          '--stored-auth-only',
        ],
        home.home,
      );

    // legacy: the initialize handshake; auto: the CLI probes with server/discover, finds a dual-era server: modern.
    it.each([
      ['legacy', '2025-11-25'],
      ['auto', '2026-07-28'],
    ])('connects with protocol era %s on %s', async (era, version) => {
      const result = ok(await inspect('--protocol-era', era, '--method', 'initialize'));
      expect(result).toMatchObject({
        serverInfo: { name: 'desk', title: 'Desk', version: '0.1.0' },
        protocolVersion: version,
        capabilities: { tools: {}, prompts: {}, resources: { subscribe: true }, completions: {}, logging: {} },
        instructions: expect.stringContaining('Desk tickets'),
      });
    });

    it('lists all six tools across pages, with schemas that pass --strict portability checks', async () => {
      const result = ok(await inspect('--method', 'tools/list', '--strict'));
      expect(result.tools.map((t: { name: string }) => t.name)).toEqual(DESK_TOOLS);
      expect(result.nextCursor).toBeUndefined();
      const close = result.tools.find((t: { name: string }) => t.name === 'close_ticket');
      expect(close.annotations).toMatchObject({ destructiveHint: true });
      expect(close.description).toContain('Risk: high.');
      expect(result.tools[0].outputSchema).toMatchObject({
        type: 'object',
        required: ['tickets', 'count', 'truncated'],
      });
    });

    it('calls search_tickets with JSON arguments and prints structured content mirrored as text', async () => {
      const result = ok(
        await inspect(
          '--method',
          'tools/call',
          '--tool-name',
          'search_tickets',
          '--tool-args-json',
          '{"query":"vpn","limit":2}',
        ),
      );
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ count: 2, truncated: true });
      expect(result.structuredContent.tickets.map((t: { id: string }) => t.id)).toEqual(['HD-1', 'HD-6']);
      expect(result.structuredContent.tickets[0].title).toMatch(/VPN/);
      expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });

    it('exits 5 when a tool answers isError, and when the tool does not exist', async () => {
      const failed = await inspect(
        '--method',
        'tools/call',
        '--tool-name',
        'get_ticket',
        '--tool-args-json',
        '{"id":"HD-999"}',
      );
      expect(failed.code).toBe(5);
      expect(failed.json.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('No ticket HD-999') }],
      });
      expect(failed.error).toMatchObject({ code: 'tool_is_error' });
      const missing = await inspect('--method', 'tools/call', '--tool-name', 'no_such_tool');
      expect(missing.code).toBe(5);
      expect(missing.error).toEqual({ code: 'tool_not_found', message: expect.stringContaining('no_such_tool') });
    });

    it('reads a ticket through the resource template', async () => {
      const result = ok(await inspect('--method', 'resources/read', '--uri', 'desk://tickets/HD-3'));
      expect(result.contents).toHaveLength(1);
      expect(result.contents[0]).toMatchObject({ uri: 'desk://tickets/HD-3', mimeType: 'application/json' });
      expect(JSON.parse(result.contents[0].text)).toMatchObject({
        id: 'HD-3',
        status: 'open',
        title: expect.stringContaining('payroll'),
      });
    });

    it('gets the triage_ticket prompt with key=value arguments', async () => {
      const result = ok(
        await inspect(
          '--method',
          'prompts/get',
          '--prompt-name',
          'triage_ticket',
          '--prompt-args',
          'ticketId=HD-2',
          'tone=formal',
        ),
      );
      expect(result.description).toMatch(/triag/i);
      expect(result.messages[0]).toMatchObject({
        role: 'user',
        content: { type: 'text', text: expect.stringContaining('Triage desk ticket HD-2') },
      });
      expect(result.messages[0].content.text).toContain('formal tone');
      expect(result.messages).toContainEqual({
        role: 'user',
        content: expect.objectContaining({ type: 'resource_link', uri: 'desk://tickets/HD-2' }),
      });
    });

    it('lists resources, resource templates and prompts', async () => {
      const resources = ok(await inspect('--method', 'resources/list'));
      expect(resources.resources).toEqual([
        expect.objectContaining({ uri: 'desk://catalog/categories', mimeType: 'application/json' }),
        expect.objectContaining({ uri: 'use://auth', mimeType: 'application/json' }),
        expect.objectContaining({ uri: 'use://http-headers', mimeType: 'application/json' }),
        expect.objectContaining({ uri: 'desk://agent/brief', mimeType: 'text/markdown' }),
        expect.objectContaining({ uri: 'desk://agent/prompt', mimeType: 'text/markdown' }),
        expect.objectContaining({ uri: 'project://version', mimeType: 'application/json' }),
        expect.objectContaining({ uri: 'doc://readme', mimeType: 'text/markdown' }),
      ]);
      const templates = ok(await inspect('--method', 'resources/templates/list'));
      expect(templates.resourceTemplates).toEqual([
        expect.objectContaining({ name: 'ticket', uriTemplate: 'desk://tickets/{id}' }),
      ]);
      const prompts = ok(await inspect('--method', 'prompts/list'));
      expect(prompts.prompts).toEqual([
        expect.objectContaining({
          name: 'triage_ticket',
          arguments: [
            expect.objectContaining({ name: 'ticketId', required: true }),
            expect.objectContaining({ name: 'tone' }),
          ],
        }),
        expect.objectContaining({ name: 'agent_brief', title: 'Agent brief' }),
        expect.objectContaining({ name: 'agent_prompt', title: 'Agent operating instructions' }),
      ]);
    });
  });

  describe('over stdio (the CLI spawns `node main.js --stdio` itself)', () => {
    // Everything after `--` is the server command; -e passes variables to it (the CLI gives the server only a minimal
    // env).
    const inspect = (...args: string[]) =>
      runInspector(
        [...args, '-e', 'MCP_PAGE_SIZE=2', '--format', 'json', '-q', '--', process.execPath, DESK_MAIN, '--stdio'],
        home.home,
      );

    it('lists all six tools across pages', async () => {
      const result = ok(await inspect('--method', 'tools/list', '--strict'));
      expect(result.tools.map((t: { name: string }) => t.name)).toEqual(DESK_TOOLS);
    });

    it('calls get_ticket and prints its structured content', async () => {
      const result = ok(
        await inspect('--method', 'tools/call', '--tool-name', 'get_ticket', '--tool-args-json', '{"id":"HD-4"}'),
      );
      expect(result.structuredContent).toMatchObject({
        id: 'HD-4',
        status: 'open',
        title: expect.stringContaining('Printer'),
      });
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });

    it('reads a resource and gets a prompt', async () => {
      const read = ok(await inspect('--method', 'resources/read', '--uri', 'desk://catalog/categories'));
      expect(read.contents[0]).toMatchObject({ uri: 'desk://catalog/categories', mimeType: 'application/json' });
      expect(JSON.parse(read.contents[0].text)).toMatchObject({
        categories: expect.arrayContaining(['access', 'hardware']),
        priorities: ['low', 'normal', 'urgent'],
      });
      const prompt = ok(
        await inspect('--method', 'prompts/get', '--prompt-name', 'triage_ticket', '--prompt-args', 'ticketId=HD-5'),
      );
      expect(prompt.messages[0].content.text).toContain('HD-5');
    });
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpTestServer, startMcpTestServer } from '@app/mcp-testing';
import { AppModule } from '../src/app.module';
import { RunningInventory, startInventory } from '../src/assets/asset-inventory.server';

/**
 * The example app's own suite, written with the testing kit the way a team tests its server: the real
 * AppModule on a loopback port, tokens from a real local JWKS issuer, the official SDK client.
 */
describe('helpdesk', () => {
  let server: McpTestServer;
  // Run from its sources, the app finds no built view beside them: its triage board is bundled here (as
  // `npm run build` does) and the app pointed at it with MCP_VIEWS_DIR.
  const built = mkdtempSync(join(tmpdir(), 'helpdesk-views-'));
  let board: string;
  // The asset inventory runs beside the app as docker-compose.yml runs it (ASSET_INVENTORY_URL and its key); the
  // last test stops it. Without the URL the app starts one of its own (apps/helpdesk/src/assets, and the interop
  // suite, which runs the built app with nothing beside it).
  const INVENTORY_KEY = 'e2e-inventory-key-0123456789abcdef';
  let inventory: RunningInventory;

  beforeAll(async () => {
    inventory = await startInventory(INVENTORY_KEY);
    const { buildViews } = await import('../../../scripts/lib/build-views.mjs');
    await buildViews(resolve(__dirname, '../../..'), 'apps/helpdesk', built);
    board = readFileSync(join(built, 'views/triage-board.html'), 'utf8');
    server = await startMcpTestServer(AppModule, {
      env: {
        MCP_VIEWS_DIR: join(built, 'views'),
        ASSET_INVENTORY_URL: inventory.url,
        ASSET_INVENTORY_API_KEY: INVENTORY_KEY,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await inventory?.close();
    rmSync(built, { recursive: true, force: true });
  });

  it('introduces itself and lists its tools', async () => {
    const client = await server.connect();
    expect(client.sdk.getServerVersion()).toMatchObject({ name: 'helpdesk', title: 'Helpdesk' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['search_tickets', 'get_ticket', 'create_ticket', 'close_ticket', 'get_asset']),
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['triage_ticket', 'agent_brief', 'agent_prompt']),
    );
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('serves its triage-ticket skill (%s)', async (protocol) => {
    const client = await server.connect({ scope: 'tickets:read', protocol });
    const skills = new SkillsClient(client.sdk);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(['skill://triage-ticket/SKILL.md']);
    const { skill } = await skills.get('skill://triage-ticket/SKILL.md');
    expect(skill.frontmatter).toMatchObject({ name: 'triage-ticket' });
    const main = await skills.read(skill);
    expect(main).toMatchObject({ verified: true, frontmatter: { name: 'triage-ticket' } });
    // The procedure names the helpdesk's own tools.
    const text = Buffer.from(main.bytes).toString('utf8');
    for (const tool of ['get_ticket', 'search_tickets', 'close_ticket']) expect(text).toContain(`\`${tool}\``);
    const reference = await skills.read(skill, 'references/priorities.md');
    expect(reference.verified).toBe(true);
    const bytes = readFileSync(resolve(__dirname, '../skills/triage-ticket/references/priorities.md'));
    expect(Buffer.from(reference.bytes).equals(bytes)).toBe(true);
  });

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'opens the triage board: the view, the tickets as text and structured content, an assignment (%s)',
    async (protocol) => {
      const client = await server.connect({ scope: 'tickets:read tickets:write', protocol });
      const tools = (await client.listTools()).tools.filter((t) => t._meta?.ui);
      expect(Object.fromEntries(tools.map((t) => [t.name, t._meta?.ui]))).toEqual({
        show_triage_board: { resourceUri: 'ui://helpdesk/triage-board', visibility: ['model', 'app'] },
        assign_ticket: { resourceUri: 'ui://helpdesk/triage-board', visibility: ['model', 'app'] },
      });
      const view = await client.readResource('ui://helpdesk/triage-board');
      expect(view.contents).toEqual([
        expect.objectContaining({
          mimeType: 'text/html;profile=mcp-app',
          text: board,
          _meta: { ui: { prefersBorder: true } },
        }),
      ]);
      // One document, nothing loaded from elsewhere: the App class is inlined as a module script.
      expect(board).not.toMatch(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=/i);
      expect(board).toMatch(/<script type="module">.*ui\/initialize/s);
      const shown = await client.callTool('show_triage_board');
      const text = (shown.content as { text: string }[])[0].text;
      expect(text).toMatch(/^\d+ open tickets, \d+ unassigned:\n- HD-/);
      const { tickets } = shown.structuredContent as { tickets: { id: string; assignee?: string }[] };
      const id = tickets[0].id;
      const assigned = await client.callTool('assign_ticket', { id, assignee: `team-${protocol.slice(0, 4)}` });
      expect(assigned.structuredContent).toMatchObject({ id, assignee: `team-${protocol.slice(0, 4)}` });
      const again = await client.callTool('show_triage_board');
      expect((again.content as { text: string }[])[0].text).toContain(`${id} [`);
      expect((again.content as { text: string }[])[0].text).toContain(`(team-${protocol.slice(0, 4)})`);
    },
  );

  it('hides the board and its tools from a caller without tickets:read', async () => {
    const outsider = await server.connect({ scope: 'profile' });
    expect((await outsider.listResources()).resources.map((r) => r.uri)).not.toContain('ui://helpdesk/triage-board');
    expect((await outsider.listTools()).tools.map((t) => t.name)).not.toContain('show_triage_board');
    await expect(outsider.readResource('ui://helpdesk/triage-board')).rejects.toThrow(/403|scope|not found|-32002/i);
  });

  it('assigns only with tickets:write, and only open tickets', async () => {
    const reader = await server.connect({ scope: 'tickets:read' });
    await expect(reader.callTool('assign_ticket', { id: 'HD-1', assignee: 'j.doe' })).rejects.toThrow(/403|scope/i);
    const writer = await server.connect({ scope: 'tickets:read tickets:write' });
    const missing = await writer.callTool('assign_ticket', { id: 'HD-999999', assignee: 'j.doe' });
    expect(missing).toMatchObject({ isError: true });
  });

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'looks an asset up in the inventory service through its downstream client (%s)',
    async (protocol) => {
      // The inventory refuses a request that carries a bearer token: an answer shows the client sent the
      // inventory's own key, not the caller's token.
      const client = await server.connect({ scope: 'tickets:read', protocol });
      const found = await client.callTool('get_asset', { tag: 'lt-1001' });
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent).toMatchObject({
        tag: 'LT-1001',
        kind: 'laptop',
        assignedTo: 'alice',
        warrantyUntil: '2027-03-31',
        underWarranty: expect.any(Boolean),
      });
      const unknown = await client.callTool('get_asset', { tag: 'ZZ-9999' });
      expect(unknown).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^No asset has that tag/) }],
      });
    },
  );

  it('finds tickets by text', async () => {
    const client = await server.connect({ scope: 'tickets:read' });
    const result = await client.callTool('search_tickets', { query: 'vpn' });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain('VPN');
  });

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'opens a ticket and closes it after the user confirms (%s)',
    async (protocol) => {
      const client = await server.connect({
        scope: 'tickets:read tickets:write',
        elicitation: () => ({ action: 'accept', content: { confirm: true } }),
        protocol,
      });
      expect(client.sdk.getNegotiatedProtocolVersion()).toBe(protocol);
      const created = await client.callTool('create_ticket', {
        title: 'Printer on floor 3 is jammed',
        description: 'Paper jam in tray 2 since this morning.',
        category: 'hardware',
        priority: 'low',
        requester: 'ada@example.com',
        idempotencyKey: `helpdesk-e2e-${protocol}`,
      });
      const id = (created.structuredContent as { id: string }).id;
      expect(id).toMatch(/^HD-\d+$/);
      const closed = await client.callTool('close_ticket', { id, resolution: 'Cleared the jam.' });
      expect(closed.structuredContent).toMatchObject({ id, status: 'closed' });
    },
  );

  it('refuses writes to a token without tickets:write', async () => {
    const reader = await server.connect({ scope: 'tickets:read' });
    await expect(reader.callTool('close_ticket', { id: 'HD-1', resolution: 'Not needed any more.' })).rejects.toThrow(
      /403|scope/i,
    );
  });

  it('serves its prompt and its ticket resource', async () => {
    const client = await server.connect();
    const prompt = await client.getPrompt('triage_ticket', { ticketId: 'HD-2' });
    expect(JSON.stringify(prompt.messages)).toContain('HD-2');
    const ticket = await client.readResource('helpdesk://tickets/HD-2');
    expect(ticket.contents[0]).toMatchObject({ uri: 'helpdesk://tickets/HD-2', mimeType: 'application/json' });
  });

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'exports every ticket as a task: the handle at once, the CSV as its result (%s)',
    async (protocol) => {
      const client = await server.connect({ protocol });
      const outcome = await client.runTask('export_tickets');
      expect(outcome.status).toBe('completed');
      const csv = (outcome.result?.content as { type: string; text: string }[])[0].text;
      expect(csv.split('\n')[0]).toBe('id,status,priority,category,title');
      expect(csv).toContain('HD-1,');
    },
  );

  it('cancels an export task when the client asks (2025-11-25 tasks/cancel)', async () => {
    const client = await server.connect({ protocol: '2025-11-25' });
    // The SDK client knows no task shapes: any answer is taken as it is.
    const anything = { '~standard': { version: 1 as const, vendor: 'e2e', validate: (value: unknown) => ({ value }) } };
    const request = (method: string, params: Record<string, unknown>) =>
      client.sdk.request({ method, params }, anything) as Promise<Record<string, unknown>>;
    const created = (await request('tools/call', { name: 'export_tickets', arguments: {}, task: {} })) as {
      task: { taskId: string; status: string };
    };
    const { taskId } = created.task;
    expect(created.task.status).toBe('working');
    expect(await request('tasks/cancel', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
    expect(await request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
  });

  it('still answers a client that does not handle tasks in the call', async () => {
    const client = await server.connect();
    const result = await client.callTool('export_tickets');
    expect((result.content as { text: string }[])[0].text).toMatch(/^id,status,priority,category,title\n/);
  });

  it("never repeats the caller's input in an error text of any tool or prompt", async () => {
    const marker = '<script>SECRET-7f3a';
    const client = await server.connect({ elicitation: () => ({ action: 'decline' }) });
    const texts: string[] = [];
    const keep = async (work: () => Promise<unknown>) => {
      try {
        const result = (await work()) as { isError?: boolean; content?: { text?: string }[] };
        if (result?.isError) texts.push(...(result.content ?? []).map((c) => c.text ?? ''));
      } catch (error) {
        texts.push(String((error as Error).message), JSON.stringify((error as { data?: unknown }).data ?? null));
      }
    };
    for (const tool of (await client.listTools()).tools) {
      // Every argument gets the marker, whatever its type: refusals by the schema must not repeat it either.
      const args = Object.fromEntries(Object.keys(tool.inputSchema.properties ?? {}).map((name) => [name, marker]));
      await keep(() => client.callTool(tool.name, args));
    }
    for (const prompt of (await client.listPrompts()).prompts) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, marker]));
      await keep(() => client.getPrompt(prompt.name, args));
    }
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) expect(text).not.toContain('SECRET');
  });

  // Last: it stops the inventory (and opens the client's circuit breaker for the calls after it).
  it.each(['2025-11-25', '2026-07-28'] as const)(
    'answers an isError result the model can act on when the inventory is down (%s)',
    async (protocol) => {
      await inventory.close();
      const client = await server.connect({ scope: 'tickets:read', protocol });
      const started = Date.now();
      const result = await client.callTool('get_asset', { tag: 'LT-1001' });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^The downstream service (did not answer|is failing)/) }],
      });
      // The downstream's name and address stay out of what the caller sees.
      expect(JSON.stringify(result)).not.toMatch(/asset-inventory|127\.0\.0\.1|:\d{4,5}\//);
      expect(Date.now() - started).toBeLessThan(6_000);
    },
  );
});

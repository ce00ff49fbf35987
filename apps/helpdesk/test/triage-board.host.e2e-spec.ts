import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { McpTestServer, startMcpTestServer } from '@app/mcp-testing';
import { AppsHostServers, HostedView, startAppsHostServers } from '../../../test/support/apps-host';
import { AppModule } from '../src/app.module';

const CHROMIUM = '/usr/bin/chromium';

/**
 * The triage board in a real web host (headless Chromium, the official client and AppBridge, a sandbox proxy on a
 * second origin, the CSP the view declares): the board shows the open tickets show_triage_board returns, and
 * assigning one calls assign_ticket through the host with the caller's own token, scopes included.
 */
describe('helpdesk triage board in a real host', () => {
  let server: McpTestServer;
  let servers: AppsHostServers;
  let browser: Browser;
  const built = mkdtempSync(join(tmpdir(), 'helpdesk-host-views-'));

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`);
    const { buildViews } = await import('../../../scripts/lib/build-views.mjs');
    await buildViews(resolve(__dirname, '../../..'), 'apps/helpdesk', built);
    server = await startMcpTestServer(AppModule, { env: { MCP_VIEWS_DIR: join(built, 'views') } });
    servers = await startAppsHostServers();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([browser?.close(), servers?.close(), server?.close()]);
    rmSync(built, { recursive: true, force: true });
  });

  async function open(scope: string): Promise<HostedView> {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const token = await server.token({ scope });
    return HostedView.open(page, servers, { mcpUrl: server.url, token, tool: 'show_triage_board' });
  }

  it('shows the open tickets by priority and assigns one through the host', async () => {
    const view = await open('tickets:read tickets:write');
    expect(view.opened).toMatchObject({ resourceUri: 'ui://helpdesk/triage-board', ui: { prefersBorder: true } });
    expect(view.opened.appInfo).toEqual({ name: 'helpdesk-triage-board', version: '1.0.0' });
    const result = await view.runTool({});
    const { tickets } = result.structuredContent as { tickets: { id: string; priority: string }[] };
    await view.dom.locator('#summary', { hasText: `${tickets.length} open tickets` }).waitFor();
    const first = tickets[0];
    const card = view.dom.locator(`.column[data-priority="${first.priority}"] [data-ticket="${first.id}"]`);
    await card.locator('input[name="assignee"]').fill('network-team');
    await card.locator('button').click();
    await view.dom
      .locator(`[data-ticket="${first.id}"] .assignee`, { hasText: 'network-team' })
      .waitFor({ state: 'visible' });
    const calls = (await view.events()).filter((e) => e.kind === 'tools/call');
    expect(calls).toEqual([
      { kind: 'tools/call', name: 'assign_ticket', refused: false },
      { kind: 'tools/call', name: 'show_triage_board', refused: false },
    ]);
    // The view declares no csp: no network of its own, and nothing it tried was blocked but zod's eval probe.
    const { policy, violations } = await view.csp();
    expect(policy).toContain("connect-src 'none'");
    expect(violations.filter((v) => v.blockedURI !== 'eval')).toEqual([]);
    expect(view.consoleErrors).toEqual([]);
    await view.page.close();
  });

  it("applies the caller's scopes to the board's calls: a reader cannot assign", async () => {
    const view = await open('tickets:read');
    const result = await view.runTool({});
    const { tickets } = result.structuredContent as { tickets: { id: string }[] };
    const card = view.dom.locator(`[data-ticket="${tickets[0].id}"]`);
    await card.locator('input[name="assignee"]').fill('j.doe');
    await card.locator('button').click();
    await card.locator('.error', { hasText: /403|scope/i }).waitFor();
    await expect(card.locator('.assignee').textContent()).resolves.not.toBe('j.doe');
    await view.page.close();
  });
});

import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { get as httpGet } from 'node:http';
import { Browser, Page, chromium } from 'playwright-core';
import { RunningServer, startDeskHttp } from './support/server-process';
import { DESK_SKILLS_DIR } from './support/skills-checks';

/** Debian's Chromium; scripts/test.sh installs it (apt-get install -y chromium) when it is missing. */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = resolve(__dirname, '../test-output/service-page.png');
const VERSION = (JSON.parse(readFileSync(resolve(__dirname, '../package.json'), 'utf8')) as { version: string })
  .version;
const RISKS: Record<string, string> = {
  search_tickets: 'read-only',
  get_ticket: 'read-only',
  export_tickets: 'read-only',
  draft_reply: 'read-only',
  create_ticket: 'medium',
  close_ticket: 'high',
};

/**
 * The service page on `GET /` of the built desk (serving its skills), in headless Chromium: it renders the catalogue,
 * skills included, under its strict CSP without a console error, and its console calls a tool over MCP with a pasted
 * token (and shows the 401 without one). Leaves a full-page screenshot in test-output/.
 */
describe('service page in headless Chromium', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;
  const consoleErrors: string[] = [];
  const mcpRequests: { method: string; url: string; authorization?: string }[] = [];

  beforeAll(async () => {
    // Fail, never skip: a missing browser must not turn this suite green.
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium), as scripts/test.sh does`,
      );
    // With its skills, one of them scoped: the page lists them beside the resources.
    server = await startDeskHttp({ MCP_SKILLS_DIR: DESK_SKILLS_DIR, MCP_SKILLS_SCOPES: 'close-ticket=tickets:write' });
    origin = new URL(server.url).origin;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/mcp')
        mcpRequests.push({ method: r.method(), url: r.url(), authorization: r.headers().authorization });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders name, version, endpoints, auth and the catalogue under a strict CSP', async () => {
    const res = await page.goto(`${origin}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('no-store');

    expect(await page.textContent('#service-title')).toBe('Desk');
    expect(await page.textContent('#service-name')).toBe('desk');
    expect(await page.textContent('#service-version')).toBe(`v${VERSION}`);
    // Both eras the server speaks, not only the session era's latest revision.
    expect(await page.textContent('#service-protocols')).toMatch(/^protocols 2026-07-28 \(stateless\) · 2025-11-25, /);
    const endpoints = await page.textContent('#endpoints');
    for (const path of [
      '/mcp',
      '/health',
      '/ready',
      '/.well-known/oauth-protected-resource',
      '/metrics',
      'use://auth',
      'use://http-headers',
    ])
      expect(endpoints).toContain(path);
    const auth = await page.textContent('#auth');
    expect(auth).toContain('Bearer JWT');
    expect(auth).toContain(server!.issuer!.issuer);
    expect(auth).toContain(server!.issuer!.audience);

    for (const [tool, risk] of Object.entries(RISKS)) {
      expect(await page.textContent(`#tool-${tool} .risk`)).toBe(risk);
    }
    expect(await page.textContent('#tool-create_ticket')).toContain('tickets:write');
    expect(await page.textContent('#prompts')).toContain('triage_ticket');
    const resources = await page.textContent('#resources');
    for (const uri of ['desk://catalog/categories', 'desk://tickets/{id}', 'use://auth', 'use://http-headers'])
      expect(resources).toContain(uri);
  });

  it('lists the skills: name, SKILL.md URI, description, file count and scopes', async () => {
    expect(await page.textContent('#skills h2')).toBe('Skills 2');
    const row = async (name: string) =>
      (await page.locator(`#skills tr[data-skill="${name}"] td`).allTextContents()).map((t) => t.trim());
    expect(await row('close-ticket')).toEqual([
      'close-ticketskill://close-ticket/SKILL.md',
      'Close a solved desk ticket with a short note the customer can read.',
      '2 files',
      'tickets:write',
    ]);
    expect(await row('triage-ticket')).toEqual([
      'triage-ticketskill://support/triage-ticket/SKILL.md',
      'Triage a new desk ticket, set its severity and route it to the right queue.',
      '2 files',
      '',
    ]);
    expect(await page.getAttribute('nav a[href="#skills"]', 'href')).toBe('#skills');
  });

  it('calls a read tool with a pasted token: initialize, initialized, tools/call, DELETE', async () => {
    await page.fill('#console-token', server!.token!);
    await page.selectOption('#console-tool', 'search_tickets');
    await page.fill('#console-args', JSON.stringify({ query: 'vpn', limit: 1 }));
    await page.click('#console-call');
    // Locators, not waitForFunction: the page's CSP (rightly) refuses the eval a string predicate needs.
    await page.locator('#console-status', { hasText: /^Done in \d+ ms$/ }).waitFor({ timeout: 10_000 });
    const output = await page.textContent('#console-output');
    expect(output).toContain('Result of search_tickets (HTTP 200)');
    expect(output).toContain('VPN drops every hour');
    expect(output).toContain('"count": 1');

    await page.locator('#console-call:not([disabled])').waitFor();
    expect(mcpRequests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'DELETE']);
    // The token travels in the Authorization header only: never in a URL, never in storage.
    for (const r of mcpRequests) {
      expect(r.authorization).toBe(`Bearer ${server!.token}`);
      expect(r.url).toBe(`${origin}/mcp`);
    }
    expect(page.url()).not.toContain(server!.token!.slice(0, 20));
    expect(
      await page.evaluate(
        'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])',
      ),
    ).toBe('[[],[],""]');

    mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
    rmSync(SCREENSHOT, { force: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
  });

  it('loads and runs without a console error (no CSP violation, no script error)', () => {
    expect(consoleErrors).toEqual([]);
  });

  it('shows the HTTP 401 and its JSON-RPC message when called without a token', async () => {
    await page.fill('#console-token', '');
    await page.click('#console-call');
    await page.locator('#console-status', { hasText: /^Failed$/ }).waitFor({ timeout: 10_000 });
    const output = await page.textContent('#console-output');
    expect(output).toContain('initialize failed: HTTP 401 Unauthorized');
    expect(output).toMatch(/JSON-RPC error -?\d+: Unauthorized/);
    expect(output).toContain('WWW-Authenticate: Bearer');
    expect(await page.getAttribute('#console-output', 'class')).toContain('error');
    // Chromium logs the failed fetch itself; nothing else may appear.
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('refuses a foreign Host (DNS rebinding) on the page and its assets, like the MCP endpoint', async () => {
    const status = (path: string, host: string) =>
      new Promise<number>((resolvePromise, reject) => {
        const url = new URL(path, server!.url);
        httpGet({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
          res.resume();
          resolvePromise(res.statusCode!);
        }).on('error', reject);
      });
    expect(await status('/', 'rebind.attacker.example')).toBe(403);
    expect(await status('/_mcp/service-page.js', 'rebind.attacker.example')).toBe(403);
    expect(await status('/', `127.0.0.1:${new URL(server!.url).port}`)).toBe(200);
  });

  it('answers 404 on GET / when MCP_SERVICE_PAGE=false', async () => {
    const off = await startDeskHttp({ MCP_SERVICE_PAGE: 'false' });
    try {
      const base = new URL(off.url).origin;
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/_mcp/service-page.js`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  }, 30_000);
});

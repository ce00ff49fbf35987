import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { Browser, Page, chromium } from 'playwright-core';
import { startInProcess } from './support/in-process-app';
import { AppsHostServers, HostedView, bundleView, startAppsHostServers } from './support/apps-host';
import { appsHostFixtureModule, PROBE_URI } from './fixtures/apps-host-fixture.module';

/** Debian's Chromium; scripts/test.sh installs it (apt-get install -y chromium) when it is missing. */
const CHROMIUM = '/usr/bin/chromium';

/**
 * An MCP Apps view in a real web host, in headless Chromium: the official client to the server, the official
 * AppBridge to the view, the view (built on the official App class) in a sandbox proxy on a second origin under the
 * CSP its `_meta.ui.csp` declares. The view completes its handshake, shows the tool input and result the host sends,
 * calls a tool through the host; the host refuses a tool the view may not call, and the CSP blocks an undeclared
 * origin.
 */
describe('MCP Apps: a view in a real host (Chromium)', () => {
  let app: INestApplication;
  let url: string;
  let servers: AppsHostServers;
  let browser: Browser;
  let page: Page;
  let view: HostedView;

  beforeAll(async () => {
    // Fail, never skip: a missing browser must not turn this suite green.
    if (!existsSync(CHROMIUM))
      throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`);
    const html = await bundleView(join(__dirname, 'fixtures/views/probe'));
    ({ app, url } = await startInProcess(appsHostFixtureModule(html)));
    servers = await startAppsHostServers();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage();
    // Every wait is for a DOM state; none may hang the suite.
    page.setDefaultTimeout(10_000);
    view = await HostedView.open(page, servers, { mcpUrl: url, tool: 'show_probe' });
  }, 60_000);

  afterAll(async () => {
    // Each resource released even when an earlier step fails, so nothing keeps jest alive.
    await Promise.allSettled([browser?.close(), servers?.close(), app?.close()]);
  });

  it('completes the handshake: the host sees the view, the view sees the host and its context', async () => {
    expect(view.opened.resourceUri).toBe(PROBE_URI);
    expect(view.opened.appInfo).toEqual({ name: 'probe-view', version: '1.2.3' });
    await view.dom.locator('#host', { hasText: 'apps-test-host 1.0.0 theme=light tool=show_probe' }).waitFor();
    const events = await view.events();
    expect(events.slice(0, 2)).toEqual([{ kind: 'sandbox-ready' }, { kind: 'initialized' }]);
  });

  it('frames the view through a sandbox proxy on a second origin, out of reach of the host page', async () => {
    const hostOrigin = new URL(servers.hostUrl).origin;
    const sandboxOrigin = new URL(servers.sandboxUrl).origin;
    expect(sandboxOrigin).not.toBe(hostOrigin);
    expect(await page.locator('#sandbox').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(await view.sandboxFrame().evaluate(() => location.origin)).toBe(sandboxOrigin);
    // The view is the proxy's srcdoc frame: the proxy's origin, and no way into the host page's DOM.
    const reach = await view.viewFrame().evaluate(() => {
      try {
        return `reached ${window.top!.document.title}`;
      } catch (error) {
        return `blocked ${(error as Error).name}`;
      }
    });
    expect(reach).toBe('blocked SecurityError');
    // self.origin, not location.origin: the URL of a srcdoc document (about:srcdoc) has no origin of its own.
    expect(await view.viewFrame().evaluate(() => self.origin)).toBe(sandboxOrigin);
  });

  it('delivers the tool input and result to the view', async () => {
    const result = await view.runTool({ topic: 'vpn' });
    expect(result.structuredContent).toEqual({ topic: 'vpn', items: 3 });
    await view.dom.locator('#tool-input', { hasText: '{"topic":"vpn"}' }).waitFor();
    await view.dom.locator('#tool-result', { hasText: 'Probe on vpn. {"topic":"vpn","items":3}' }).waitFor();
  });

  it('forwards a tool call from the view to the server and shows the answer', async () => {
    await view.dom.locator('#ask').click();
    await view.dom.locator('#answer', { hasText: 'The answer to life is 42.' }).waitFor();
    expect(await view.events()).toContainEqual({ kind: 'tools/call', name: 'probe_answer', refused: false });
  });

  it('refuses a call to a tool whose visibility excludes app', async () => {
    await view.dom.locator('#ask-model-only').click();
    await view.dom.locator('#model-only', { hasText: /^refused: / }).waitFor();
    expect(await view.dom.locator('#model-only').textContent()).toContain('visibility excludes "app"');
    expect(await view.events()).toContainEqual({ kind: 'tools/call', name: 'probe_model_only', refused: true });
  });

  it('runs the view under its CSP: an undeclared origin is blocked', async () => {
    const { policy } = await view.csp();
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self' https://api.example.com");
    const meta = await view.dom.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(meta).toBe(policy);

    await view.dom.locator('#fetch-undeclared').click();
    await view.dom.locator('#fetch', { hasText: 'failed: TypeError' }).waitFor();
    await view.dom.locator('#csp', { hasText: 'connect-src https://blocked.example.invalid' }).waitFor();
    const { violations } = await view.csp();
    // zod, under the App class, probes once whether eval works (new Function in a try): the policy refuses it too.
    const probe = violations.filter((v) => v.blockedURI === 'eval');
    expect(probe.every((v) => v.directive === 'script-src')).toBe(true);
    expect(violations.filter((v) => v.blockedURI !== 'eval')).toEqual([
      expect.objectContaining({ directive: 'connect-src', blockedURI: 'https://blocked.example.invalid/data' }),
    ]);
  });

  it('tears the view down: the view answers ui/resource-teardown, the host ends its session', async () => {
    await view.close();
    expect((await view.events()).at(-1)).toEqual({ kind: 'teardown', outcome: 'answered' });
    await view.dom.locator('#host', { hasText: 'torn down' }).waitFor();
  });

  it('shows no console error but the blocked fetch', () => {
    expect(view.consoleErrors.filter((e) => !/blocked\.example\.invalid/.test(e))).toEqual([]);
  });
});

import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { HostEvent, OpenedView, OpenViewOptions } from './apps-host.types';
import type { AppsHostServers } from './apps-host.server';

/** A CSP violation seen in the view, as the sandbox proxy recorded it. */
export interface CspViolation {
  directive: string;
  blockedURI: string;
  policy: string;
}

type HostApi = {
  open(options: OpenViewOptions): Promise<OpenedView>;
  runTool(args: Record<string, unknown>): Promise<CallToolResult>;
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  sendToolResult(result: CallToolResult): Promise<void>;
  events(): HostEvent[];
  close(): Promise<void>;
};
type HostWindow = { __host: HostApi };
type SandboxWindow = { __sandbox: { violations: CspViolation[]; csp: string } };

/** What to open: the server (and its bearer token, if it wants one) and the tool whose view to show. */
export interface OpenOptions {
  mcpUrl: string;
  token?: string;
  tool: string;
  hostContext?: McpUiHostContext;
}

/**
 * A view open in the test host, in a Playwright page: its DOM (through both frames), what the host saw, and the
 * browser's own reports (console errors, CSP violations).
 */
export class HostedView {
  private constructor(
    readonly page: Page,
    readonly opened: OpenedView,
    /** Console errors and uncaught exceptions of every frame of the page, in order, from the host page's load on. */
    readonly consoleErrors: string[],
  ) {}

  /**
   * Loads the host page in `page`, connects it to the server and renders `tool`'s view; resolves once the view has
   * completed its `ui/initialize` handshake.
   */
  static async open(page: Page, servers: AppsHostServers, options: OpenOptions): Promise<HostedView> {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    await page.goto(servers.hostUrl, { waitUntil: 'load' });
    const open: OpenViewOptions = { ...options, sandboxUrl: servers.sandboxUrl };
    // `unknown` argument: Playwright's serialisable mapping of a Tool (hostContext) is too deep for tsc.
    const opened = await page.evaluate<OpenedView, unknown>(
      (o) => (window as unknown as HostWindow).__host.open(o as OpenViewOptions),
      open,
    );
    return new HostedView(page, opened, errors);
  }

  /** The view's document, for locators (`view.dom.locator('#answer')`). */
  get dom(): FrameLocator {
    return this.page.frameLocator('#sandbox').frameLocator('#view');
  }

  /** The sandbox proxy's frame (another origin than the host page). */
  sandboxFrame(): Frame {
    const frame = this.page.frames().find((f) => f.parentFrame() === this.page.mainFrame());
    if (!frame) throw new Error('the sandbox proxy frame is not loaded');
    return frame;
  }

  /** The view's own frame, inside the sandbox proxy. */
  viewFrame(): Frame {
    const frame = this.sandboxFrame().childFrames()[0];
    if (!frame) throw new Error('the view frame is not loaded');
    return frame;
  }

  /** Calls the tool as an agent would and shows it in the view: tool input, then the server's result. */
  runTool(args: Record<string, unknown>): Promise<CallToolResult> {
    return this.page.evaluate((a) => (window as unknown as HostWindow).__host.runTool(a), args);
  }

  sendToolInput(args: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((a) => (window as unknown as HostWindow).__host.sendToolInput(a), args);
  }

  sendToolResult(result: CallToolResult): Promise<void> {
    return this.page.evaluate((r) => (window as unknown as HostWindow).__host.sendToolResult(r), result);
  }

  /** What the host saw, in order (sandbox ready, initialized, each view tool call and whether it was refused). */
  events(): Promise<HostEvent[]> {
    return this.page.evaluate(() => (window as unknown as HostWindow).__host.events());
  }

  /** The policy the sandbox proxy put on the view, and the violations it has seen so far. */
  async csp(): Promise<{ policy: string; violations: CspViolation[] }> {
    const { csp, violations } = await this.sandboxFrame().evaluate(
      () => (window as unknown as SandboxWindow).__sandbox,
    );
    return { policy: csp, violations };
  }

  /** Tears the view down (`ui/resource-teardown`) and closes the host's MCP session; the page stays open. */
  close(): Promise<void> {
    return this.page.evaluate(() => (window as unknown as HostWindow).__host.close());
  }
}

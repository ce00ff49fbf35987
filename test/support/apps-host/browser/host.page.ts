/// <reference lib="dom" />
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  getToolUiResourceUri,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { HostEvent, OpenedView, OpenViewOptions } from '../apps-host.types';
import { listAllTools, readView, visibilityOf } from './server-view';

/**
 * A minimal web host for MCP Apps views, driven by a test through `window.__host`: the official client to the server,
 * the official AppBridge to the view, the view in a sandbox proxy on another origin. The host does what the extension
 * leaves to it and AppBridge does not: it refuses a view's `tools/call` for a tool whose visibility lacks `app`.
 */

const HOST_INFO = { name: 'apps-test-host', version: '1.0.0' };
const INIT_TIMEOUT_MS = 10_000;
const events: HostEvent[] = [];
/** The open view: one per page, as a conversation turn shows one tool's view. */
let session: { mcp: Client; view: AppBridge; tool: string } | undefined;

/** The bridge to the view, its MCP requests answered through the host's own client. */
function bridgeFor(mcp: Client, tools: Awaited<ReturnType<typeof listAllTools>>, options: BridgeOptions): AppBridge {
  // No client handed to AppBridge: its automatic forwarding passes every tools/call through, and the host must
  // filter them; the handlers below forward through the same official client.
  const view = new AppBridge(null, HOST_INFO, options.capabilities, { hostContext: options.hostContext });
  view.oncalltool = async (params, extra) => {
    const refused = !visibilityOf(tools.find((t) => t.name === params.name)).includes('app');
    events.push({ kind: 'tools/call', name: params.name, refused });
    if (refused) throw new Error(`Tool ${params.name} is not callable by the view (visibility excludes "app")`);
    return (await mcp.callTool(params, { signal: extra.mcpReq.signal })) as CallToolResult;
  };
  view.onreadresource = (params, extra) => mcp.readResource(params, { signal: extra.mcpReq.signal });
  view.onlistresources = (params, extra) => mcp.listResources(params, { signal: extra.mcpReq.signal });
  view.addEventListener('loggingmessage', ({ level, data }) => events.push({ kind: 'log', level, data }));
  view.addEventListener('sizechange', (size) => events.push({ kind: 'size', ...size }));
  return view;
}
interface BridgeOptions {
  capabilities: McpUiHostCapabilities;
  hostContext: McpUiHostContext;
}

/** Connects to the server, reads the tool's view and renders it; resolves once the view has initialized. */
async function open(options: OpenViewOptions, mcp: Client): Promise<OpenedView> {
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  await mcp.connect(new StreamableHTTPClientTransport(new URL(options.mcpUrl), { requestInit: { headers } }));
  const tools = await listAllTools(mcp);
  const tool = tools.find((t) => t.name === options.tool);
  if (!tool) throw new Error(`the server has no tool ${options.tool}`);
  const resourceUri = getToolUiResourceUri(tool);
  if (!resourceUri) throw new Error(`tool ${options.tool} names no view (_meta.ui.resourceUri)`);
  const { html, ui } = await readView(mcp, resourceUri);

  const view = bridgeFor(mcp, tools, {
    capabilities: {
      serverTools: {},
      serverResources: {},
      logging: {},
      sandbox: { csp: ui.csp, permissions: ui.permissions },
    },
    hostContext: {
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      platform: 'web',
      locale: 'en-US',
      toolInfo: { tool },
      ...options.hostContext,
    },
  });
  view.onsandboxready = () => {
    events.push({ kind: 'sandbox-ready' });
    void view.sendSandboxResourceReady({ html, csp: ui.csp, permissions: ui.permissions });
  };
  // A view that never completes ui/initialize fails the open with a reason, not the test's own timeout.
  const initialized = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the view ${resourceUri} did not complete ui/initialize in ${INIT_TIMEOUT_MS} ms`)),
      INIT_TIMEOUT_MS,
    );
    view.addEventListener('initialized', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  const frame = document.createElement('iframe');
  frame.id = 'sandbox';
  // The proxy needs both (the extension says so): scripts to relay, its own origin to reach the inner view.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.style.cssText = 'width:100%;height:480px;border:1px solid #ccc';
  frame.src = `${options.sandboxUrl}?host=${encodeURIComponent(location.origin)}`;
  document.body.appendChild(frame);
  // Connected before the proxy can announce itself: its first message is sandbox-proxy-ready.
  await view.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await initialized;
  events.push({ kind: 'initialized' });
  session = { mcp, view, tool: options.tool };
  return { resourceUri, ui, appInfo: view.getAppVersion(), appCapabilities: view.getAppCapabilities() };
}

function current(): NonNullable<typeof session> {
  if (!session) throw new Error('no view is open: call open() first');
  return session;
}

/** The API the test drives through `page.evaluate`. */
const api = {
  open: async (options: OpenViewOptions): Promise<OpenedView> => {
    if (session) throw new Error('a view is already open on this host page');
    const mcp = new Client(HOST_INFO);
    try {
      return await open(options, mcp);
    } catch (error) {
      await mcp.close().catch(() => undefined);
      throw error;
    }
  },
  /** The tool call an agent would make, shown in the view: the input first, then the server's result. */
  runTool: async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const { mcp, view, tool } = current();
    await view.sendToolInput({ arguments: args });
    const result = (await mcp.callTool({ name: tool, arguments: args })) as CallToolResult;
    await view.sendToolResult(result);
    return result;
  },
  sendToolInput: (args: Record<string, unknown>) => current().view.sendToolInput({ arguments: args }),
  sendToolResult: (result: CallToolResult) => current().view.sendToolResult(result),
  events: () => events.slice(),
  /** Tears the view down (`ui/resource-teardown`, answered by the view) and ends the MCP session. */
  close: async () => {
    const { mcp, view } = current();
    session = undefined;
    // A view need not handle teardown (it then answers "Method not found"): the host tears it down all the same.
    const teardown = await view.teardownResource({}).then(
      () => 'answered',
      (error: Error) => `failed: ${error.message}`,
    );
    events.push({ kind: 'teardown', outcome: teardown });
    await view.close();
    await mcp.close();
  },
};
(window as unknown as { __host: typeof api }).__host = api;

import { join } from 'node:path';
import { bundleScript } from './bundle-script';
import { startStaticServer, StaticServer } from './static-server';

/** The two origins of the test host: the host page, and the sandbox proxy the host frames the view through. */
export interface AppsHostServers {
  /** The host page (http://127.0.0.1:<port>/): `window.__host` drives it. */
  hostUrl: string;
  /** The sandbox proxy page, on another origin (http://localhost:<port>/sandbox.html). */
  sandboxUrl: string;
  close(): Promise<void>;
}

const page = (title: string, script: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  // An empty icon: the browser would otherwise ask for /favicon.ico and log the 404 as a console error.
  `<link rel="icon" href="data:,"></head>` +
  `<body style="margin:0"><script src="${script}"></script></body></html>`;

/**
 * Builds the host page and the sandbox proxy (esbuild, in memory) and serves each on its own origin: the host on
 * 127.0.0.1, the proxy on localhost, two ports, so the browser keeps them apart as the extension requires of a web
 * host. Nothing here knows an app: the page is told the MCP URL, token and tool when a test opens a view.
 */
export async function startAppsHostServers(): Promise<AppsHostServers> {
  const browserDir = join(__dirname, 'browser');
  const [hostJs, sandboxJs] = await Promise.all([
    bundleScript(join(browserDir, 'host.page.ts')),
    bundleScript(join(browserDir, 'sandbox-proxy.page.ts')),
  ]);
  const js = (body: string) => ({ type: 'text/javascript; charset=utf-8', body });
  const html = (body: string) => ({ type: 'text/html; charset=utf-8', body });
  const servers: StaticServer[] = [];
  try {
    servers.push(
      await startStaticServer(
        { '/': html(page('MCP Apps test host', '/host.js')), '/host.js': js(hostJs) },
        '127.0.0.1',
      ),
    );
    servers.push(
      await startStaticServer(
        { '/sandbox.html': html(page('MCP Apps sandbox proxy', '/sandbox.js')), '/sandbox.js': js(sandboxJs) },
        'localhost',
      ),
    );
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  const [host, sandbox] = servers;
  return {
    hostUrl: `${host.origin}/`,
    sandboxUrl: `${sandbox.origin}/sandbox.html`,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

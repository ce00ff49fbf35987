/// <reference lib="dom" />
import type { McpUiSandboxResourceReadyNotification } from '@modelcontextprotocol/ext-apps/app-bridge';
import { viewCsp } from './view-csp';

/**
 * The sandbox proxy of a web host (served on an origin other than the host page's): it tells the host it is ready,
 * receives the view's HTML in `ui/notifications/sandbox-resource-ready`, loads it in an inner iframe under the
 * Content-Security-Policy built from the view's declared `csp`, and then relays every other message both ways,
 * untouched. It originates no request of its own. CSP violations in the view are kept in `window.__sandbox` for the
 * test (the policy itself is in the inner document's `<meta>`).
 */

type Params = McpUiSandboxResourceReadyNotification['params'];
interface Violation {
  directive: string;
  blockedURI: string;
  policy: string;
}

const SANDBOX_PREFIX = 'ui/notifications/sandbox-';
/** The only origin this proxy takes orders from: the host page that framed it (`?host=`). */
const hostOrigin = new URL(location.href).searchParams.get('host') ?? '';
const violations: Violation[] = [];
let inner: HTMLIFrameElement | undefined;
(window as unknown as { __sandbox: unknown }).__sandbox = { violations, csp: '' };

/** The view's document with its policy as the first element of `<head>`, before any script can run. */
function withPolicy(html: string, csp: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, '&quot;')}">`;
  const head = /<head\b[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
}

/** `allow` for the declared permissions (Permission Policy feature names). */
function allowOf(permissions: Params['permissions']): string {
  const names = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write',
  };
  return Object.entries(names)
    .filter(([key]) => permissions?.[key as keyof typeof names])
    .map(([, feature]) => feature)
    .join('; ');
}

function load(params: Params): void {
  if (inner) return; // One view per proxy: a second resource would replace a live view under the host's feet.
  const csp = viewCsp(params.csp);
  (window as unknown as { __sandbox: { csp: string } }).__sandbox.csp = csp;
  inner = document.createElement('iframe');
  inner.id = 'view';
  inner.setAttribute('sandbox', params.sandbox ?? 'allow-scripts allow-same-origin allow-forms');
  const allow = allowOf(params.permissions);
  if (allow) inner.setAttribute('allow', allow);
  inner.style.cssText = 'border:0;width:100%;height:100%';
  // Same origin as this proxy (srcdoc, allow-same-origin): the proxy can watch the view's CSP violations, from the
  // view's load on (one while it parses shows in the browser console only, which HostedView collects).
  inner.addEventListener('load', () =>
    inner?.contentDocument?.addEventListener('securitypolicyviolation', (e) =>
      violations.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI, policy: e.originalPolicy }),
    ),
  );
  inner.srcdoc = withPolicy(params.html, csp);
  document.body.appendChild(inner);
}

window.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as { method?: unknown } | null;
  if (event.source === window.parent && event.origin === hostOrigin) {
    if (data?.method === `${SANDBOX_PREFIX}resource-ready`) load((data as { params: Params }).params);
    else if (typeof data?.method === 'string' && data.method.startsWith(SANDBOX_PREFIX)) return;
    else inner?.contentWindow?.postMessage(data, '*');
  } else if (inner && event.source === inner.contentWindow) {
    if (typeof data?.method === 'string' && data.method.startsWith(SANDBOX_PREFIX)) return;
    window.parent.postMessage(data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: `${SANDBOX_PREFIX}proxy-ready`, params: {} }, hostOrigin);

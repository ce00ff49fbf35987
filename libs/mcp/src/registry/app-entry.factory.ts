import { McpAppOptions } from '../decorators/decorator-options.interface';
import { RegistryViolations, uriScheme } from './registry-rules';
import { EntrySource, McpHandler, ResourceEntry } from './registry-entries';

/** The MCP Apps extension (ext-apps 2026-01-26, docs/apps.md). @internal */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one content type of an MCP Apps view. @internal */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

const pick = <T extends object>(o: T, keys: (keyof T)[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

/**
 * Compiles one `@McpApp` into a resource entry: the `ui://` URI, the fixed mimeType, and `_meta.ui` on both the
 * listed resource and the content read. `html` is the view's document when it is known at boot (see
 * {@link staticHtml}), for the CSP check; undefined skips that check.
 * @internal
 */
export function buildAppEntry(
  o: McpAppOptions,
  source: EntrySource,
  handler: McpHandler,
  violations: RegistryViolations,
  html?: string,
): ResourceEntry | undefined {
  const where = `${source.className}.${source.methodName}`;
  let ok = true;
  const fail = (message: string) => {
    violations.add(where, message);
    ok = false;
  };
  if (uriScheme(o.uri ?? '') !== 'ui') fail(`@McpApp view "${o.uri}": the URI of a view must start with ui://`);
  if (!o.name?.trim()) fail(`@McpApp view "${o.uri}" has no name`);
  const remote = !o.csp && html !== undefined ? remoteOrigins(html) : [];
  if (remote.length)
    fail(
      `@McpApp view "${o.uri}" declares no csp, but its HTML references ${remote.join(', ')}: the host blocks every ` +
        `undeclared origin; list them in csp.resourceDomains / csp.connectDomains / csp.frameDomains`,
    );
  if (!ok) return undefined;
  const ui = pick(o, ['csp', 'permissions', 'domain', 'prefersBorder']);
  const meta = Object.keys(ui).length ? { ...o._meta, ui } : o._meta;
  const definition = {
    ...pick(o, ['uri', 'name', 'title', 'description', 'icons']),
    mimeType: APP_MIME_TYPE,
    ...(meta ? { _meta: meta } : {}),
  };
  return { uri: o.uri, mimeType: APP_MIME_TYPE, definition, handler, ui, ...source };
}

/**
 * The view's HTML when it is static: the method takes no argument and returns a string at once. Called once at
 * boot on the provider itself (outside Nest's pipeline); anything else (arguments, a promise, a throw) is unknown.
 * @internal
 */
export function staticHtml(read: () => unknown, arity: number): string | undefined {
  if (arity > 0) return undefined;
  try {
    const value = read();
    if (value instanceof Promise) value.catch(() => undefined);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The remote `http(s)://` origins an HTML document references, sorted and unique. XML namespace names
 * (`xmlns="http://www.w3.org/..."`) are identifiers, never fetched, and are left out. Inside inline scripts only the
 * URLs a network call names literally count (`fetch(`, `new WebSocket(`, `new EventSource(`, `import(`): a bundled
 * view's script holds many URLs it never loads (schema ids, links in error texts).
 * @internal
 */
export function remoteOrigins(html: string): string[] {
  const origins = new Set<string>();
  const scripts: string[] = [];
  const markup = html.replace(/(<script\b[^>]*>)([\s\S]*?)(<\/script\s*>)/gi, (_, open, body, close) => {
    scripts.push(body);
    return `${open}${close}`;
  });
  for (const m of markup.matchAll(/(xmlns(?::[\w-]+)?\s*=\s*["']?)?\b(https?:\/\/[^\s"'<>()/\\`]+)/gi)) {
    if (!m[1]) origins.add(m[2].toLowerCase());
  }
  const call = /\b(?:fetch|WebSocket|EventSource|import)\s*\(\s*["'`](https?|wss?):\/\/([^\s"'`/\\]+)/gi;
  for (const body of scripts) for (const m of body.matchAll(call)) origins.add(`${m[1]}://${m[2]}`.toLowerCase());
  return [...origins].sort();
}

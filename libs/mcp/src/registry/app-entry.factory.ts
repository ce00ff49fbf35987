import { McpAppOptions } from '../decorators/decorator-options.interface';
import { RegistryViolations, uriScheme } from './registry-rules';
import { checkAppCsp } from './app-csp.rules';
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
 * {@link staticHtml}), for the CSP check; undefined checks only the declared `csp` itself.
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
  if (!ok) return undefined;
  // A view refused for its csp is still registered (the boot fails anyway), so that its tools' links resolve.
  checkAppCsp(o.uri, o.csp, html, (message) => violations.add(where, message));
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

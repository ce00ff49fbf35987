import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The declared csp, with `wasmUnsafeEval`: in the extension's text, not yet in ext-apps 2.0.4's type. */
export type ViewCspMeta = McpUiResourceCsp & { wasmUnsafeEval?: boolean };

/**
 * The Content-Security-Policy a view runs under, from its `_meta.ui.csp` as the extension prescribes: nothing by
 * default, inline script and style (a view is one document), `self` and `data:` images and media, and only the
 * declared origins on top: `connectDomains` for fetch/XHR/WebSocket, `resourceDomains` for scripts, styles, images,
 * fonts and media, `frameDomains` for nested frames (else none), `baseUriDomains` for `<base>` (else self). Plugins
 * are always refused. An origin that is not a plain source expression is dropped rather than allowed to widen the
 * policy (a `;` or space would start another directive or source).
 */
export function viewCsp(csp: ViewCspMeta | undefined): string {
  const list = (domains: string[] | undefined) =>
    (domains ?? []).filter((d) => /^[a-z][a-z0-9+.-]*:\/\/[^\s;,']+$/i.test(d));
  const resources = list(csp?.resourceDomains);
  const frames = list(csp?.frameDomains);
  const bases = list(csp?.baseUriDomains);
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'", "'unsafe-inline'", ...(csp?.wasmUnsafeEval ? ["'wasm-unsafe-eval'"] : []), ...resources]],
    ['style-src', ["'self'", "'unsafe-inline'", ...resources]],
    // Without any csp the extension's restrictive default has no network at all, not even the sandbox's own origin.
    ['connect-src', csp ? ["'self'", ...list(csp.connectDomains)] : ["'none'"]],
    ['img-src', ["'self'", 'data:', ...resources]],
    ['font-src', ["'self'", ...resources]],
    ['media-src', ["'self'", 'data:', ...resources]],
    ['frame-src', frames.length ? frames : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', bases.length ? bases : ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

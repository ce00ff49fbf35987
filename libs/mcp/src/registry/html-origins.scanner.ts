/** The `csp` list of an MCP Apps view that governs one kind of use (ext-apps 2026-01-26, `McpUiResourceCsp`). */
export type CspList = 'connectDomains' | 'resourceDomains' | 'frameDomains' | 'baseUriDomains';

/** A remote origin a view's HTML uses, and the `csp` list that must cover it; no list when the use is unclear. */
export interface OriginUse {
  origin: string;
  list?: CspList;
}

// A URL's origin; a host built at run time (`https://${host}`, `https://api.${env}.com`) is not an origin to check,
// a full stop after the host (the end of a sentence) is not part of it.
// The optional first group is an XML namespace attribute: a name, never fetched.
const URL_ORIGIN =
  /(xmlns(?::[\w-]+)?\s*=\s*["']?)?\b((?:https?|wss?):\/\/(?:[a-z0-9-]+\.)*[a-z0-9-]+(?::\d+)?)(?![\w$@%{*:-]|\.[\w$@%{*-])/gi;

/** An inline script's body (group 1 is its opening tag). */
const SCRIPT_BODY = /(<script\b[^>]*>)[\s\S]*?(?=<\/script\s*>|$)/gi;

/** Attributes whose URL the host's policy governs, by `tag attribute`; any other attribute's use is unclear. */
const ATTRIBUTE_LISTS: Record<string, CspList> = {
  'base href': 'baseUriDomains',
  'iframe src': 'frameDomains',
  'frame src': 'frameDomains',
  ...Object.fromEntries(
    [
      'script src',
      'link href',
      'img src',
      'img srcset',
      'source src',
      'source srcset',
      'video src',
      'video poster',
      'audio src',
      'track src',
      'embed src',
      'object data',
      'input src',
      'image href',
      'image xlink:href',
      'use href',
      'use xlink:href',
    ].map((key) => [key, 'resourceDomains' as const]),
  ),
};

/** What a script or style does with the URL that follows, told from the text just before it. */
const CALLS: [RegExp, CspList][] = [
  [/\b(?:fetch|WebSocket|EventSource|sendBeacon)\s*\(\s*["'`]$/, 'connectDomains'],
  [/\.open\s*\(\s*["'`][a-z]+["'`]\s*,\s*["'`]$/i, 'connectDomains'],
  [/(?:\bimport\s*\(\s*|\bimport\s+|\bfrom\s*|\bimportScripts\s*\(\s*)["'`]$/, 'resourceDomains'],
  // CSS `url(` in lower case, as written in practice: a script's `new URL("https://...")` only parses a URL.
  [/(?:(?<![\w.$])url\(\s*["']?|@import\s+["'])$/, 'resourceDomains'],
];

/** The list governing the attribute the URL starts (or, for `srcset`, sits in), if the URL is in a tag. */
function attributeList(before: string): CspList | undefined {
  const open = before.lastIndexOf('<');
  if (open < 0 || before.includes('>', open)) return undefined;
  const inTag = before.slice(open);
  const tag = /^<([a-z][\w:-]*)/i.exec(inTag)?.[1];
  const equals = inTag.lastIndexOf('=');
  const attribute = /\s([a-z][\w:-]*)\s*$/i.exec(inTag.slice(Math.max(0, equals - 100), equals))?.[1];
  if (!tag || !attribute) return undefined;
  const prefix = inTag.slice(equals + 1).replace(/^\s*["']?/, '');
  // Anything before the URL in the value (`/go?to https://...`) makes it something else than what is fetched.
  if (/["']/.test(prefix) || (prefix.trim() && !attribute.toLowerCase().endsWith('srcset'))) return undefined;
  return ATTRIBUTE_LISTS[`${tag} ${attribute}`.toLowerCase()];
}

/** The list for a URL found at `index`: a call or `url(...)` right before it, else the attribute it is the value of. */
function listAt(html: string, index: number): CspList | undefined {
  const before = html.slice(Math.max(0, index - 1000), index);
  for (const [pattern, list] of CALLS) if (pattern.test(before.slice(-200))) return list;
  return attributeList(before);
}

/** The URL's origin (lower case, default port left out); undefined for an impossible one (a port over 65535). */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Every remote origin (`http(s)://`, `ws(s)://`) an HTML document references, with the `csp` list its use falls
 * under where the markup tells: a `src`/`href` of script, link, img, media and the like (resourceDomains), a
 * fetch/XHR/WebSocket/EventSource URL in a script (connectDomains), an iframe's `src` (frameDomains), `<base href>`
 * (baseUriDomains), `url(...)`/`@import` and module imports (resourceDomains). Anything else outside scripts (a
 * link, text) has no list; any other URL inside an inline script (a string a bundle holds) is left out, as are XML
 * namespace names. One entry per origin and list, sorted.
 * @internal
 */
export function originUses(html: string): OriginUse[] {
  const uses = new Map<string, OriginUse>();
  const scripts = [...html.matchAll(SCRIPT_BODY)].map((m) => [m.index + m[1].length, m.index + m[0].length]);
  const inScript = (at: number) => scripts.some(([start, end]) => at >= start && at < end);
  for (const m of html.matchAll(URL_ORIGIN)) {
    if (m[1]) continue;
    const origin = originOf(m[2]);
    if (!origin) continue;
    const at = m.index + m[0].length - m[2].length;
    const list = listAt(html, at);
    // In an inline script only a URL a call names counts: a bundle holds many it never loads (schema ids, links).
    if (!list && inScript(at)) continue;
    uses.set(`${origin} ${list ?? ''}`, { origin, ...(list ? { list } : {}) });
  }
  return [...uses.keys()].sort().map((key) => uses.get(key)!);
}

/**
 * The remote origins an HTML document references, sorted and unique (see {@link originUses}).
 * @internal
 */
export function remoteOrigins(html: string): string[] {
  return [...new Set(originUses(html).map((u) => u.origin))].sort();
}

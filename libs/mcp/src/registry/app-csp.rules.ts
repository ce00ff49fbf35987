import { McpAppCsp } from '../decorators/decorator-options.interface';
import { CspList, originUses, remoteOrigins } from './html-origins.scanner';
import { cspSourceCovers, parseCspSource } from './csp-source.matcher';

const LISTS: CspList[] = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];

/** What each list is for, to tell an author where an origin goes. */
const USES: Record<CspList, string> = {
  connectDomains: 'fetch/XHR/WebSocket',
  resourceDomains: 'scripts, styles, images, fonts, media',
  frameDomains: 'iframes',
  baseUriDomains: '<base href>',
};
const WHERE_TO = LISTS.map((l) => `csp.${l} (${USES[l]})`).join(', ');

/**
 * The declared lists, parsed; an entry that is not a source expression is refused (the host could not put it in
 * the view's policy), so is a list that is not an array of strings.
 */
function declaredSources(csp: McpAppCsp, refuse: (message: string) => void) {
  const sources = new Map<CspList, NonNullable<ReturnType<typeof parseCspSource>>[]>();
  for (const list of LISTS) {
    const entries: unknown = csp[list] ?? [];
    if (!Array.isArray(entries)) {
      refuse(`csp.${list} must be a list of origins such as "https://api.example.com", got ${JSON.stringify(entries)}`);
      continue;
    }
    const parsed = entries.map((e: unknown) => [e, parseCspSource(e)] as const);
    for (const [entry] of parsed.filter(([, source]) => !source))
      refuse(
        `csp.${list} entry ${JSON.stringify(entry)} is not an origin: write "https://api.example.com", ` +
          `"https://*.example.com" (any subdomain) or "wss://rt.example.com:8443"`,
      );
    sources.set(
      list,
      parsed.flatMap(([, source]) => (source ? [source] : [])),
    );
  }
  return sources;
}

/**
 * A view's CSP against the origins its static HTML uses (docs/apps.md#boot-checks). Without `csp` the host allows no
 * remote origin, so any is refused. With `csp`, each entry must be an origin, and each origin the HTML uses must be
 * covered by the list governing how it is used (see {@link originUses}); an origin whose use the markup does not tell
 * is accepted by any list. `html` undefined (not known at boot): only the entries are checked. Each refusal names the
 * view, the origin and the list to add it to.
 * @internal
 */
export function checkAppCsp(
  uri: string,
  csp: McpAppCsp | undefined,
  html: string | undefined,
  refuse: (message: string) => void,
): void {
  const view = `@McpApp view "${uri}"`;
  if (!csp) {
    const remote = html === undefined ? [] : remoteOrigins(html);
    if (remote.length)
      refuse(
        `${view} declares no csp, but its HTML references ${remote.join(', ')}: the host blocks every undeclared ` +
          `origin; declare a csp and list each origin in ${WHERE_TO}`,
      );
    return;
  }
  const sources = declaredSources(csp, (message) => refuse(`${view}: ${message}`));
  for (const { origin, list } of html === undefined ? [] : originUses(html)) {
    const lists = list ? [list] : LISTS;
    if (lists.some((l) => sources.get(l)?.some((s) => cspSourceCovers(s, origin)))) continue;
    refuse(
      list
        ? `${view}: its HTML uses ${origin} for ${USES[list]}, which csp.${list} does not cover; add "${origin}" to csp.${list}`
        : `${view}: its HTML references ${origin}, which no csp list covers; add "${origin}" to the list for how ` +
            `the view uses it: ${WHERE_TO}`,
    );
  }
}

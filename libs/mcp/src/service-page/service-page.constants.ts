/** Where the page is served. @internal */
export const SERVICE_PAGE_PATH = '/';
/**
 * The page's own script and style sheet. Under `/_mcp/` so they cannot clash with a team's routes;
 * separate files because the page's CSP allows no inline script or style.
 * @internal
 */
export const SERVICE_PAGE_SCRIPT_PATH = '/_mcp/service-page.js';
/** @internal */
export const SERVICE_PAGE_STYLE_PATH = '/_mcp/service-page.css';

/**
 * Content-Security-Policy of the page: nothing inline, nothing from elsewhere; `connect-src 'self'`
 * lets the console call the MCP endpoint of this origin, `form-action 'none'` keeps the token out of
 * any URL even if the script failed to load.
 * @internal
 */
export const SERVICE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every service-page response. @internal */
export const SERVICE_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': SERVICE_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

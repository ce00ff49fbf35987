import { ErrorCode } from '../wire/json-rpc';

/**
 * How JSON-RPC errors in a JSON answer to a 2025 session map to HTTP statuses.
 * - `spec` (default): the 2025 revisions' rule, which the official SDK clients expect: a JSON-RPC error answering a
 *   well-formed request is HTTP 200 (the error is in the body, so the client raises a typed protocol error), except
 *   malformed requests (400), the limits (413, 429), auth (401, 403) and unavailability (503 + `Retry-After`), which
 *   stay HTTP errors.
 * - `corporate`: the corporate standard v1.2 table (400, 404, 413, 429, 500, 503, 504, 409), except that
 *   `-32601`/`-32002` on a request carrying `Mcp-Session-Id` come back as 400, never 404: to a Streamable HTTP client
 *   404 means "your session expired, initialize again". Official clients then see untyped HTTP errors.
 * 2026-07-28 answers use {@link modernHttpStatusFor} whatever the profile.
 */
export type HttpStatusProfile = 'corporate' | 'spec';

const CORPORATE: Record<number, number> = {
  [ErrorCode.ParseError]: 400,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.InvalidParams]: 400,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.ServerError]: 500,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.ResourceNotFound]: 404,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.Timeout]: 504,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UpstreamUnavailable]: 503,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
};
const SPEC_KEPT = new Set<number>([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.RateLimited,
  ErrorCode.PayloadTooLarge,
  ErrorCode.Forbidden,
  // Unavailable (shutting down, at capacity, a store down): 503 + Retry-After is what proxies and clients retry on.
  ErrorCode.UpstreamUnavailable,
]);

/**
 * The HTTP status of a 2026-07-28 answer: the revision's own rules (400 for the request errors it names, 404 for an
 * unknown method) and the corporate v2.0 Appendix B mapping for the rest, whatever the 2025 profile.
 * @internal
 */
export function modernHttpStatusFor(code: number | undefined): number {
  return code === undefined ? 200 : (CORPORATE[code] ?? 500);
}

/** The HTTP status of a JSON answer whose JSON-RPC error has `code`. @internal */
export function httpStatusFor(code: number | undefined, profile: HttpStatusProfile, hasSession: boolean): number {
  if (code === undefined) return 200;
  if (profile === 'spec') return SPEC_KEPT.has(code) ? CORPORATE[code] : 200;
  const status = CORPORATE[code] ?? 500;
  return status === 404 && hasSession ? 400 : status;
}

/** Session-era revisions (2025-11-25 and earlier: an `initialize` handshake opens a session), newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** Modern revisions (stateless: every request carries its version, capabilities and identity in `_meta`). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Every revision this engine speaks, newest first: `server/discover`'s `supportedVersions`. */
export const ALL_PROTOCOL_VERSIONS = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS] as const;
export type SessionProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];
export type ProtocolVersion = SessionProtocolVersion | ModernProtocolVersion;
/**
 * The newest session-era revision: what an `initialize` asking for an unknown (or a modern) revision is answered with.
 */
export const LATEST_PROTOCOL_VERSION: SessionProtocolVersion = '2025-11-25';
export const MODERN_PROTOCOL_VERSION: ModernProtocolVersion = '2026-07-28';
/** What a Streamable HTTP request without `MCP-Protocol-Version` and without a session is taken to speak. */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

const supported = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
const modern = new Set<string>(MODERN_PROTOCOL_VERSIONS);

/** A session-era revision this engine speaks. @internal */
export const isSupportedVersion = (v: unknown): v is SessionProtocolVersion =>
  typeof v === 'string' && supported.has(v);
/** A modern revision this engine speaks. @internal */
export const isModernVersion = (v: unknown): v is ModernProtocolVersion => typeof v === 'string' && modern.has(v);

/**
 * The revision to answer an `initialize` with: the client's own when we speak it, else our latest
 * (the client then decides whether it can continue).
 * @internal
 */
export const negotiateVersion = (requested: unknown): SessionProtocolVersion =>
  isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** Features that differ between revisions, looked up once per session. @internal */
export interface EraFeatures {
  /** Stateless: no session, `_meta` on every request, MRTR instead of server requests (2026-07-28). */
  modern: boolean;
  /** JSON-RPC batches may be received (2025-03-26 only). */
  batches: boolean;
  /** `elicitation/create` exists (2025-06-18 and later). */
  elicitation: boolean;
  /** SSE priming events and `retry` (2025-11-25 and later). */
  sseResumePriming: boolean;
  /** `structuredContent`, `outputSchema`, `title` (2025-06-18 and later). */
  structuredOutput: boolean;
  /** The experimental tasks utility (`task` on `tools/call`, `tasks/*`): 2025-11-25 only (an extension after it). */
  tasksUtility: boolean;
}

const ERAS: Record<ProtocolVersion, EraFeatures> = {
  '2026-07-28': {
    modern: true,
    batches: false,
    elicitation: true,
    sseResumePriming: false,
    structuredOutput: true,
    tasksUtility: false,
  },
  '2025-11-25': {
    modern: false,
    batches: false,
    elicitation: true,
    sseResumePriming: true,
    structuredOutput: true,
    tasksUtility: true,
  },
  '2025-06-18': {
    modern: false,
    batches: false,
    elicitation: true,
    sseResumePriming: false,
    structuredOutput: true,
    tasksUtility: false,
  },
  '2025-03-26': {
    modern: false,
    batches: true,
    elicitation: false,
    sseResumePriming: false,
    structuredOutput: false,
    tasksUtility: false,
  },
  '2024-11-05': {
    modern: false,
    batches: false,
    elicitation: false,
    sseResumePriming: false,
    structuredOutput: false,
    tasksUtility: false,
  },
};

/** @internal */
export const eraFeatures = (v: ProtocolVersion): EraFeatures => ERAS[v];

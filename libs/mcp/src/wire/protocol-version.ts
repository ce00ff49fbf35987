/** Protocol revisions this engine speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';
/** What a Streamable HTTP request without `MCP-Protocol-Version` and without a session is taken to speak. */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

const supported = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/** @internal */
export const isSupportedVersion = (v: unknown): v is ProtocolVersion => typeof v === 'string' && supported.has(v);

/**
 * The revision to answer an `initialize` with: the client's own when we speak it, else our latest
 * (the client then decides whether it can continue).
 * @internal
 */
export const negotiateVersion = (requested: unknown): ProtocolVersion =>
  isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** Features that differ between revisions, looked up once per session. @internal */
export interface EraFeatures {
  /** JSON-RPC batches may be received (2025-03-26 only). */
  batches: boolean;
  /** `elicitation/create` exists (2025-06-18 and later). */
  elicitation: boolean;
  /** SSE priming events and `retry` (2025-11-25 and later). */
  sseResumePriming: boolean;
  /** `structuredContent`, `outputSchema`, `title` (2025-06-18 and later). */
  structuredOutput: boolean;
}

const ERAS: Record<ProtocolVersion, EraFeatures> = {
  '2025-11-25': { batches: false, elicitation: true, sseResumePriming: true, structuredOutput: true },
  '2025-06-18': { batches: false, elicitation: true, sseResumePriming: false, structuredOutput: true },
  '2025-03-26': { batches: true, elicitation: false, sseResumePriming: false, structuredOutput: false },
  '2024-11-05': { batches: false, elicitation: false, sseResumePriming: false, structuredOutput: false },
};

/** @internal */
export const eraFeatures = (v: ProtocolVersion): EraFeatures => ERAS[v];

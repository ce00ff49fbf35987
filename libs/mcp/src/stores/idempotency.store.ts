/** What a call with an idempotency key finds when it claims the key. */
export type IdempotencyClaim =
  /** The key is this call's: run the tool, then `keep` its answer or `release` the key. */
  | { state: 'claimed'; token: string }
  /** A call with the key runs now (on any replica); `fingerprint` is of its arguments. */
  | { state: 'running'; fingerprint: string }
  /** A call with the key has answered: `answer` is its kept JSON text, or null when it was too large to keep. */
  | { state: 'done'; fingerprint: string; answer: string | null }
  /** The caller (`subject`) or the deployment (`deployment`) holds as many keys as allowed, until `retryAfterMs`. */
  | { state: 'full'; bound: 'subject' | 'deployment'; retryAfterMs: number };

/** The bounds one claim is taken under. */
export interface IdempotencyClaimBounds {
  /** How long a running claim holds when its replica never answers (dies): the tool's timeout and a margin. */
  runningTtlMs: number;
  /** Keys one caller holds at once (running or kept). */
  maxPerSubject: number;
  /** Keys the deployment holds at once. */
  maxKeys: number;
}

/**
 * Where the first answer of a call with an idempotency key (`mutation.idempotency: { key, replay: true }`) is kept,
 * so a repeat from the same caller is answered from it on any replica. `id` is opaque and already names the caller,
 * the tool and the key; `subject` only groups a caller's keys for its bound. Claiming is atomic: of two concurrent
 * calls with one key exactly one gets `claimed`.
 */
export interface McpIdempotencyStore {
  claim(id: string, subject: string, fingerprint: string, bounds: IdempotencyClaimBounds): Promise<IdempotencyClaim>;
  /** Turns this call's claim into its kept answer for `ttlMs`; a claim that is no longer this call's is left alone. */
  keep(id: string, subject: string, token: string, answer: string | null, ttlMs: number): Promise<void>;
  /** Gives the key back (the call failed): a repeat runs the tool again. Only this call's own claim is removed. */
  release(id: string, subject: string, token: string): Promise<void>;
}

/** Injection token of the {@link McpIdempotencyStore}. */
export const MCP_IDEMPOTENCY_STORE = Symbol('MCP_IDEMPOTENCY_STORE');

/** What one downstream request knows of the call it serves. */
export interface DownstreamCallInfo {
  /** The caller's subject (token `sub`), when authenticated. */
  subject?: string;
  /** The caller's own bearer token, for token exchange only: never sent downstream. */
  callerToken?: string;
  /** Aborted when the call is cancelled or its deadline passes. */
  signal: AbortSignal;
  /** Epoch ms by which the call must be answered. */
  deadline: number;
  /**
   * The task whose run makes the request, when the tool runs as a task: a run may happen later, on another replica or
   * a worker, and never holds the caller's token (caller tokens are not stored), so a token exchange refuses it.
   */
  taskId?: string;
}

/** How a downstream client authenticates one request: headers to add. Never returns the caller's token. */
export interface DownstreamCredentials {
  headers(call: DownstreamCallInfo): Promise<Record<string, string>>;
  /** Forgets a cached token the downstream refused (401), so that the one retry gets a fresh one. */
  invalidate?(call: DownstreamCallInfo): Promise<void>;
  /**
   * For a downstream's readiness check: false while its token issuer cannot be reached and no token is usable. Token
   * credentials have it; a static secret has no issuer.
   */
  issuerReachable?(signal: AbortSignal): Promise<boolean>;
}

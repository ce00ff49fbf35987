/** What the per-call log entries and the audit channel carry (corporate standard §15.2, see docs/compliance.md#s15). */
export interface McpLoggingOptions {
  /**
   * Put the call's arguments, with sensitive fields masked, into tool-call and audit entries.
   * Default false: a field nobody marked may still hold personal data (corporate §15.2, docs/compliance.md#s15), so
   * logging arguments is a decision a team takes after marking its fields. Env `MCP_LOG_ARGUMENTS=true`.
   */
  arguments?: boolean;
  /**
   * Refused requests (401, 403, 429, connection and session caps) are logged once per source and reason, then
   * counted: one line with the count per interval. Default 60 s. Env `MCP_REFUSAL_LOG_INTERVAL_MS`.
   */
  refusalIntervalMs?: number;
}

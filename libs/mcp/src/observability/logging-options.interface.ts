/** What the per-call log entries and the audit channel carry (corporate standard §15.2). */
export interface McpLoggingOptions {
  /**
   * Put the call's arguments, with sensitive fields masked, into tool-call and audit entries.
   * Default true. Env `MCP_LOG_ARGUMENTS`.
   */
  arguments?: boolean;
}

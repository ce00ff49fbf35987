/**
 * Where operational and audit logs go: stdout, except when the process speaks MCP over stdio,
 * where stdout belongs to the protocol and everything else must go to stderr. The template's
 * convention for stdio is `--stdio` on the command line or `MCP_TRANSPORT=stdio`.
 * @internal
 */
export function logFileDescriptor(): 1 | 2 {
  return process.argv.includes('--stdio') || process.env.MCP_TRANSPORT === 'stdio' ? 2 : 1;
}

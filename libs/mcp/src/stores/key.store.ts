/**
 * Where replicas agree on a secret key without configuration: the key that seals multi round-trip `requestState`,
 * so a retry may reach any replica. In memory: a random key for this process (one replica). Redis: the first replica
 * to ask creates it, every other one reads the same.
 */
export interface McpKeyStore {
  /** The 32-byte key named `name`, created on first use. */
  sharedKey(name: string): Promise<Buffer>;
}

/** Injection token of the {@link McpKeyStore}. */
export const MCP_KEY_STORE = Symbol('MCP_KEY_STORE');

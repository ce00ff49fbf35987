/** A JSON Schema as published in `tools/list`. */
export type Schema = Record<string, unknown>;

/** One tool as clients see it. */
export interface ContractTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: Record<string, unknown>;
}

/** One prompt as clients see it. */
export interface ContractPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** One fixed resource as clients see it. */
export interface ContractResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One resource template as clients see it. */
export interface ContractTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * One skill as clients see it in `skills/list` (docs/skills.md#the-contract-gate): its `SKILL.md` URI, the `name` and
 * `description` of its frontmatter, and each file's URI and `sha256:` digest (as the skill's manifest lists them).
 */
export interface ContractSkill {
  uri: string;
  name: string;
  description: string;
  files: { uri: string; digest: string }[];
}

/** When an item was first seen marked `[DEPRECATED ...]` (corporate standard §17.2, see docs/compliance.md#s17). */
export interface DeprecationRecord {
  /** The server version that first published the mark. */
  since: string;
  /** The day the mark was first recorded (YYYY-MM-DD). */
  date: string;
  /** The support deadline named in the mark (YYYY-MM-DD). */
  removal: string;
}

/** A server's public contract (§17.1, docs/compliance.md#s17), as committed in `apps/<app>/mcp-contract.json`. */
export interface McpContract {
  server: { name: string; version: string };
  tools: ContractTool[];
  prompts: ContractPrompt[];
  resources: ContractResource[];
  resourceTemplates: ContractTemplate[];
  /**
   * The skills served (`io.modelcontextprotocol/skills`), by URI; absent in a contract recorded before skills were
   * (read as none). Their `SKILL.md` files are not repeated under `resources`.
   */
  skills?: ContractSkill[];
  /** Keyed `tool:<name>`, `prompt:<name>`, `resource:<uri>`, `template:<uriTemplate>`, `skill:<uri>`. */
  deprecations: Record<string, DeprecationRecord>;
}

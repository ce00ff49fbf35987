/** Text given inline, or read from a file (resolved against the working directory) at boot. */
export type McpTextSource = string | { file: string };

/**
 * The corporate built-ins (standard §10.2, §11.2). Each can be switched off with `false`; the
 * standard then asks for a deviation note in the server's README.
 */
export interface McpCorporateOptions {
  /** The `agent_brief` prompt and its `<service>://agent/brief` mirror (at most 2 KB, checked at boot). */
  agentBrief?: McpTextSource | false;
  /** The `agent_prompt` prompt and its `<service>://agent/prompt` mirror. */
  agentPrompt?: McpTextSource | false;
  /** The `project://version` resource. Default true. */
  projectVersion?: boolean;
  /** The `doc://readme` resource: the app's README. */
  readme?: McpTextSource | false;
}

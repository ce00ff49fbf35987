/**
 * Text given inline, or `{ file }` read once at boot. A relative `file` resolves against the working
 * directory (as `fs` does); pass an absolute path (e.g. `join(__dirname, '../agent/brief.md')`) to
 * make it independent of where the server is started.
 */
export type McpTextSource = string | { file: string };

/**
 * The corporate built-ins (standard §10.2 and §11.2, see docs/compliance.md#s10 and docs/compliance.md#s11),
 * registered whenever MCP is served (HTTP or stdio).
 * Each can be switched off with `false`; the standard then asks for a deviation note in the server's
 * README. A team's own `@McpPrompt`/`@McpResource` with the same name or URI takes the place of a
 * built-in that is left unset; setting both stops the boot.
 *
 * @example
 * McpModule.forRoot({
 *   name: 'orders',
 *   corporate: {
 *     agentBrief: { file: join(__dirname, '../agent/brief.md') },
 *     agentPrompt: { file: join(__dirname, '../agent/prompt.md') },
 *     readme: { file: join(__dirname, '../README.md') },
 *   },
 * });
 */
export interface McpCorporateOptions {
  /**
   * The `agent_brief` prompt and its `<service>://agent/brief` mirror: domain, when to select the
   * server, when not, key constraints. At most 2 KB of UTF-8, checked at boot. Unset: a boot warning.
   */
  agentBrief?: McpTextSource | false;
  /** The `agent_prompt` prompt and its `<service>://agent/prompt` mirror: full operating instructions. Unset: a boot warning. */
  agentPrompt?: McpTextSource | false;
  /** The `project://version` resource (name, title, version, description). Default true. */
  projectVersion?: boolean;
  /** The `doc://readme` resource: the app's README (a MAY). Unset or `false`: not published. */
  readme?: McpTextSource | false;
}

/**
 * Agent Skills served over MCP (extension `io.modelcontextprotocol/skills`, docs/skills.md).
 *
 * @example
 * McpModule.forRoot({ name: 'desk', skills: { root: join(__dirname, '..', 'skills') } })
 */
export interface McpSkillsOptions {
  /**
   * The folder holding the skills: every directory under it with a `SKILL.md` is a skill, served as
   * `skill://<path>/<file>`. Read once at boot; a problem refuses the boot. Env `MCP_SKILLS_DIR`.
   */
  root: string;
  /**
   * Scopes a caller needs to see a skill, by the skill's path under the root. A caller without them does not see
   * the skill in `skills/list` or `resources/list`, and is answered as for an unknown skill by `skills/get`,
   * `resources/read` and `resources/directory/read`. A path naming no skill refuses the boot. Env
   * `MCP_SKILLS_SCOPES` (`close-ticket=tickets:write;support/triage-ticket=tickets:read`). Default: none.
   *
   * @example scopes: { 'support/triage-ticket': ['tickets:read'] }
   */
  scopes?: Record<string, string[]>;
}

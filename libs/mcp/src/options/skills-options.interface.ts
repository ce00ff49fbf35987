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
}

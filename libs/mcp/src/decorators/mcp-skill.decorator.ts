import { SetMetadata } from '@nestjs/common';
import { MCP_SKILL_METADATA } from '../mcp.constants';
import { McpSkillOptions } from './decorator-options.interface';

/**
 * Publishes a skill computed by a provider method (extension `io.modelcontextprotocol/skills`, docs/skills.md): the
 * method is called once at boot, without arguments and outside Nest's pipeline, and returns (or resolves to) the
 * skill's files, {@link McpSkillFiles}. They pass the boot checks of a skills folder and are served alike, fixed for
 * the process's lifetime. `@McpScopes` on the method or its class limits who sees the skill.
 *
 * @example
 * @McpSkill({ path: 'billing/refund-order' })
 * refundSkill(): McpSkillFiles {
 *   return { 'SKILL.md': renderSkill(this.policy), 'references/limits.md': this.policy.limitsTable() };
 * }
 */
export const McpSkill = (options: McpSkillOptions = {}): MethodDecorator => SetMetadata(MCP_SKILL_METADATA, options);

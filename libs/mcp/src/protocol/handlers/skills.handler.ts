import { McpError, InvalidParamsError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';
import { SkillFile } from '../../skills/skill-catalog';
import { McpRegistry } from '../../registry/mcp.registry';
import { MethodResult, HandlerContext, uriParam } from './handler-context';

/** `skills/list`: whole entries (each a complete manifest), paginated like the other lists. @internal */
export const listSkills = ({ registry, params, principal }: HandlerContext): MethodResult => ({
  raw: registry.skillPage(params.cursor, principal),
});

/**
 * `skills/get`: the entry of the skill whose SKILL.md is `params.uri`; `-32602` for any other URI and for a skill
 * whose scopes the caller lacks (the same answer: its existence is not revealed).
 * @internal
 */
export function getSkill({ registry, params, principal }: HandlerContext): MethodResult {
  const uri = uriParam(params);
  const skill = registry.skills.skill(uri, McpRegistry.skillAccess(principal));
  if (!skill)
    throw new McpError(ErrorCode.InvalidParams, 'No skill is served at this URI', { uri, reason: 'not_found' });
  return { skill };
}

/**
 * `resources/directory/read`: the direct children of a skill directory (files with their `mimeType`, folders as
 * `inode/directory`), in one page: a skill holds at most 512 files. `-32602` for any other URI, and for a folder
 * only skills the caller may not see hold.
 * @internal
 */
export function readDirectory({ registry, params, principal }: HandlerContext): MethodResult {
  const uri = uriParam(params);
  if (params.cursor !== undefined)
    throw new InvalidParamsError('Invalid cursor', { field: 'cursor', reason: 'invalid' });
  const children = registry.skills.directory(uri, McpRegistry.skillAccess(principal));
  if (!children) {
    throw new McpError(ErrorCode.InvalidParams, 'Not a directory resource', { uri, reason: 'not_found' });
  }
  return { resources: children.map((c) => ({ ...c })) };
}

/** The `resources/read` result of a skill file: its content item, prepared at boot (`text` or `blob`). @internal */
export function skillFileContents(file: SkillFile): MethodResult {
  return { contents: [file.content] };
}

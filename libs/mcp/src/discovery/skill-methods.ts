import { RegistryViolations } from '../registry/registry-rules';
import { checkSkillPlaceholders } from '../registry/placeholder-rules';
import { McpRegistry } from '../registry/mcp.registry';
import { ComputedSkillSource, addComputedSkills } from '../skills/computed-skills';

/** An `@McpSkill` method found at boot, not called yet. @internal */
export interface SkillMethod {
  /** `Class.method`. */
  readonly where: string;
  readonly path?: string;
  /** `@McpScopes` of the method and its class. */
  readonly scopes: readonly string[];
  /** Calls the method on its provider, without arguments and outside Nest's pipeline. */
  readonly call: () => unknown;
}

/**
 * Calls every `@McpSkill` method once (together, awaiting those that return a promise), checks what they return by
 * the skills folder's rules and serves the accepted skills beside the folder's: each problem, and each `TODO:` left
 * in a frontmatter in production, is a violation naming the method. The skills are fixed from then on
 * (docs/skills.md: every replica computes the same ones at boot).
 * @internal
 */
export async function serveSkillMethods(
  methods: readonly SkillMethod[],
  registry: McpRegistry,
  violations: RegistryViolations,
  warn: (message: string) => void,
): Promise<void> {
  checkSkillPlaceholders(registry.skills.skills, violations, warn);
  const sources = await Promise.all(methods.map((m) => sourceOf(m, violations)));
  const outcome = addComputedSkills(
    registry.skills,
    sources.filter((s): s is ComputedSkillSource => s !== undefined),
  );
  for (const p of outcome.problems) violations.add(p.where, p.message);
  for (const skill of outcome.accepted) checkSkillPlaceholders([skill], violations, warn, undefined, skill.where);
  if (outcome.accepted.length > 0) registry.useSkills(outcome.catalog);
}

/** What the method returned, awaited; undefined (a violation noted) when it threw or rejected. */
async function sourceOf(method: SkillMethod, violations: RegistryViolations): Promise<ComputedSkillSource | undefined> {
  try {
    const files = await method.call();
    return { where: method.where, path: method.path, scopes: method.scopes, files };
  } catch (error) {
    violations.add(method.where, `@McpSkill failed at boot: ${(error as Error)?.message ?? String(error)}`);
    return undefined;
  }
}

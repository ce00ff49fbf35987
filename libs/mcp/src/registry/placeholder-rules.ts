import { RegistryViolations } from './registry-rules';
import { TOOL_SAFETY_META_KEY } from './tool-description.renderer';
import { PLACEHOLDER, placeholderFields } from './placeholder-fields';

/** One published catalogue entry, as the registry holds it. */
interface Published {
  definition: Record<string, unknown>;
  className?: string;
  methodName?: string;
}

/** The catalogue to check: the registry's maps, by kind. */
export interface PublishedCatalogue {
  tools: ReadonlyMap<string, Published>;
  prompts: ReadonlyMap<string, Published>;
  resources: ReadonlyMap<string, Published>;
  templates: ReadonlyMap<string, Published>;
}

/**
 * Refuses, when NODE_ENV=production, every tool, prompt and resource whose published definition (what the lists
 * send: descriptions, titles, annotations, the safety metadata, argument and schema descriptions) still carries
 * a generator's `TODO:` placeholder, one problem per entry naming the fields; clients would read them as the
 * tool's real risk sentences. Elsewhere each is a warning, so a freshly generated provider runs in development
 * and in its spec.
 * @internal
 */
export function checkPlaceholders(
  catalogue: PublishedCatalogue,
  violations: RegistryViolations,
  warn: (message: string) => void,
  nodeEnv = process.env.NODE_ENV,
): void {
  const kinds: [string, ReadonlyMap<string, Published>][] = [
    ['tool', catalogue.tools],
    ['prompt', catalogue.prompts],
    ['resource', catalogue.resources],
    ['resource template', catalogue.templates],
  ];
  for (const [kind, entries] of kinds) {
    for (const [key, entry] of entries) {
      const fields = placeholderFields(entry.definition, kind === 'tool', TOOL_SAFETY_META_KEY);
      if (!fields.length) continue;
      const where = `${entry.className ?? 'McpRegistry'}.${entry.methodName ?? 'add'}`;
      const message =
        `${kind} "${key}" publishes "TODO:" placeholders in ${fields.join(', ')}: ` +
        `replace each with the real sentence (the generator left them for you to write)`;
      if (nodeEnv === 'production') violations.add(where, message);
      else warn(`${where}: ${message} (refused when NODE_ENV=production)`);
    }
  }
}

/**
 * The same rule for skills (docs/skills.md): a `SKILL.md` whose frontmatter (its `name`, `description` or any other
 * field) still says `TODO:`, as `nest g mcp-skill` writes it, is refused when NODE_ENV=production and a warning
 * elsewhere. Its frontmatter is what `skills/list` and `resources/list` publish and what an agent selects skills by.
 * `where` names the source: the skills folder's option, or the `@McpSkill` method (`Class.method`).
 * @internal
 */
export function checkSkillPlaceholders(
  skills: readonly { uri: string; frontmatter: Readonly<Record<string, unknown>> }[],
  violations: RegistryViolations,
  warn: (message: string) => void,
  nodeEnv = process.env.NODE_ENV,
  where = 'McpModule.forRoot({ skills })',
): void {
  for (const skill of skills) {
    const fields = placeholderFields(skill.frontmatter as Record<string, unknown>, false);
    if (!fields.length) continue;
    const message =
      `skill "${skill.uri}" publishes "TODO:" placeholders in its SKILL.md frontmatter (${fields.join(', ')}): ` +
      'replace each with the real sentence (the generator left them for you to write)';
    if (nodeEnv === 'production') violations.add(where, message);
    else warn(`${where}: ${message} (refused when NODE_ENV=production)`);
  }
}

/**
 * The one boot warning for a server whose own `description` or `instructions` (the `McpModule.forRoot` options a
 * generated app.module.ts starts with as `TODO:` sentences) still say `TODO:`, or undefined. A warning, not a
 * refusal, in every environment: they describe the server, not a tool's risk, but every client reads them.
 * @internal
 */
export function serverPlaceholderWarning(server: { description?: string; instructions?: string }): string | undefined {
  const fields = (['description', 'instructions'] as const).filter((f) => PLACEHOLDER.test(server[f] ?? ''));
  if (!fields.length) return undefined;
  return (
    `McpModule.forRoot: the server's ${fields.join(', ')} still say "TODO:": clients read them in initialize and ` +
    `server/discover; replace each with the real sentence (the generator left them for you to write)`
  );
}

import { parseDocument } from 'yaml';

/** The frontmatter of a SKILL.md, or why it has none. @internal */
export type FrontmatterOutcome = { frontmatter: Record<string, unknown> } | { problem: string };

const OPENING = /^---\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * The YAML between a SKILL.md's opening `---` line and the next `---` line, as a JSON object (YAML 1.2 core schema:
 * no timestamps, no custom tags; duplicate keys refused), or the reason it cannot be read.
 * @internal
 */
export function readFrontmatter(text: string): FrontmatterOutcome {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const opening = OPENING.exec(body);
  if (!opening) return { problem: 'frontmatter missing: SKILL.md must begin with a "---" line' };
  const rest = body.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { problem: 'frontmatter unterminated: no closing "---" line' };
  const doc = parseDocument(rest.slice(0, closing.index), { schema: 'core', uniqueKeys: true, customTags: [] });
  if (doc.errors.length > 0) return { problem: `frontmatter unparseable: ${doc.errors[0].message.split('\n')[0]}` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    return { problem: `frontmatter unparseable: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'frontmatter must be a YAML mapping' };
  return { frontmatter: value as Record<string, unknown> };
}

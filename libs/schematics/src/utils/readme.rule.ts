import { Rule } from '@angular-devkit/schematics';
import { editAppDoc } from './app-doc.rule';

/** What a generated provider's README row says where the team describes it (the same words for every kind). */
const DESCRIBE = 'TODO: say what it does, as its description does.';

/** The README section each provider kind is listed in, as `nest g mcp-server` writes it. */
export type ReadmeSection = 'Tools' | 'Prompts and resources';

/**
 * Lists a generated provider in its app's README.md (the folder above the source root, where `nest g mcp-server`
 * writes one): a tool in the `## Tools` table, its second column its scopes; a prompt or resource in the `## Prompts
 * and resources` table, its second column its kind (`prompt`, `resource`, `resource template`). The README is the
 * server's public contract: the acceptance check of `npm run compliance` fails while a tool the server lists is not
 * named in it, and a reviewer reads the rest there. The row says `TODO:` where the team describes the entry. An app
 * without a README.md, or one without the section's table, is left as it is.
 */
export function listInReadme(
  sourceRoot: string | undefined,
  section: ReadmeSection,
  name: string,
  second: string,
): Rule {
  // The description is the team's to write, here as in the code.
  const row = `| \`${name}\` | ${second} | ${DESCRIBE} |`;
  return editAppDoc(sourceRoot, 'README.md', (text) => addTableRow(text, section, row));
}

/** The README with `row` appended to the table of its `## <section>` section, or undefined when it has none. */
export function addTableRow(text: string, section: ReadmeSection, row: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.replace(/\s+$/, '') === `## ${section}`);
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  // The table's separator line (| --- | ... |), then its rows up to the first line that is not one.
  const separator = lines.findIndex((l, i) => i > start && i < end && /^\|(\s*:?-+:?\s*\|)+\s*$/.test(l));
  if (separator < 0) return undefined;
  let last = separator;
  while (last + 1 < end && lines[last + 1].startsWith('|')) last++;
  lines.splice(last + 1, 0, row);
  return lines.join('\n');
}

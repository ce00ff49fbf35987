import { Rule } from '@angular-devkit/schematics';
import { editAppDoc } from './app-doc.rule';

/**
 * Lists a generated tool in the `## Tools` table of its app's README.md (the folder above the source root, where
 * `nest g mcp-server` writes one): the README is the server's public contract, and the acceptance check of `npm run
 * compliance` fails while a tool the server lists is not named in it. The row says `TODO:` where the team describes
 * the tool. An app without a README.md, or one without a Tools table, is left as it is.
 */
export function listInReadme(sourceRoot: string | undefined, tool: string): Rule {
  // A generated tool declares no scopes; its description is the team's to write, here as in the code.
  const row = `| \`${tool}\` | none | TODO: say what it does, as its description does. |`;
  return editAppDoc(sourceRoot, 'README.md', (text) => addToolRow(text, row));
}

/** The README with `row` appended to the table of its `## Tools` section, or undefined when it has none. */
export function addToolRow(text: string, row: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^## Tools\s*$/.test(l));
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

import { Rule } from '@angular-devkit/schematics';
import { editAppDoc } from './app-doc.rule';

/**
 * Notes a generated provider under `## [Unreleased]` / `### Added` of its app's CHANGELOG.md (the folder above the
 * source root, where `nest g mcp-server` writes one), so the contract change it makes is not forgotten at release.
 * An app without a CHANGELOG.md, or one without an `[Unreleased]` section, is left as it is.
 */
export function noteInChangelog(sourceRoot: string | undefined, line: string): Rule {
  return editAppDoc(sourceRoot, 'CHANGELOG.md', (text) => addUnderUnreleased(text, line));
}

/** The changelog with `- line` appended to the `### Added` list of `[Unreleased]` (created when missing). */
export function addUnderUnreleased(text: string, line: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^## \[Unreleased\]/i.test(l));
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  const added = lines.findIndex((l, i) => i > start && i < end && /^### Added\s*$/.test(l));
  if (added >= 0) {
    let last = added;
    while (last + 1 < end && /^(- | {2})/.test(lines[last + 1])) last++;
    lines.splice(last + 1, 0, `- ${line}`);
  } else {
    lines.splice(start + 1, 0, '', '### Added', `- ${line}`);
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

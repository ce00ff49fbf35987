import { dirname, join, normalize } from '@angular-devkit/core';
import { Rule, Tree } from '@angular-devkit/schematics';

/**
 * Edits a document of the app a provider is generated into (`README.md`, `CHANGELOG.md`: the folder above the source
 * root, where `nest g mcp-server` writes them). `edit` returns the new text, or undefined to leave the file as it is;
 * an app without the file is left alone.
 */
export function editAppDoc(
  sourceRoot: string | undefined,
  fileName: string,
  edit: (text: string) => string | undefined,
): Rule {
  return (tree: Tree) => {
    if (!sourceRoot) return tree;
    const file = join(dirname(normalize(sourceRoot)), fileName);
    const text = tree.read(file)?.toString();
    const changed = text === undefined ? undefined : edit(text);
    if (changed !== undefined) tree.overwrite(file, changed);
    return tree;
  };
}

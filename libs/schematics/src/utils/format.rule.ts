import { join } from 'node:path';
import { Rule, Tree } from '@angular-devkit/schematics';

const FORMATTED = ['.ts', '.json', '.yaml'];

/**
 * Formats every file the schematic created or changed with the repository's Prettier configuration, so what
 * is generated passes `prettier --check` and ESLint untouched (the test command runs both).
 */
export function formatGenerated(): Rule {
  return async (tree: Tree) => {
    const prettier = await import('prettier');
    const paths = new Set(tree.actions.filter((a) => a.kind === 'c' || a.kind === 'o').map((a) => String(a.path)));
    for (const path of paths) {
      if (!FORMATTED.some((ext) => path.endsWith(ext)) || !tree.exists(path)) continue;
      const absolute = join(process.cwd(), path);
      const config = (await prettier.resolveConfig(absolute)) ?? {};
      const source = tree.read(path)!.toString('utf8');
      const formatted = await prettier.format(source, { ...config, filepath: absolute });
      if (formatted !== source) tree.overwrite(path, formatted);
    }
    return tree;
  };
}

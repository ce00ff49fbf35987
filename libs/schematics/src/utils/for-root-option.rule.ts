import { join, normalize } from '@angular-devkit/core';
import { Rule, SchematicContext, Tree } from '@angular-devkit/schematics';
import { McpSchematic } from './option-rules';

/**
 * Adds `option` (e.g. `skills: { root: `${__dirname}/../skills` }`) to the app's `McpModule.forRoot({ name: ... })` in
 * app.module.ts, right after its name, unless the module already passes `key`: run twice, it changes nothing. An
 * app.module.ts it cannot find the call in is left as it is, with a warning saying what to add (`orElse`: the
 * environment variable that does the same).
 */
export function addForRootOption(
  schematic: McpSchematic,
  sourceRoot: string,
  key: string,
  option: string,
  orElse: string,
): Rule {
  return (tree: Tree, context: SchematicContext) => {
    const file = join(normalize(sourceRoot), 'app.module.ts');
    const text = tree.read(file)?.toString();
    if (text !== undefined && new RegExp(`\\b${key}\\s*:`).test(text)) return tree;
    const call = text === undefined ? null : /McpModule\.forRoot\(\{\s*name:\s*'[^']*'\s*,?/.exec(text);
    if (!call || text === undefined) {
      context.logger.warn(
        `${schematic}: add ${option} to McpModule.forRoot in ${file.replace(/^\//, '')} (or set ${orElse}) ` +
          `to serve the ${key}/ folder`,
      );
      return tree;
    }
    const end = call.index + call[0].length;
    const head = call[0].trimEnd().endsWith(',') ? text.slice(0, end) : `${text.slice(0, end).trimEnd()},`;
    tree.overwrite(file, `${head} ${option},${text.slice(end)}`);
    return tree;
  };
}

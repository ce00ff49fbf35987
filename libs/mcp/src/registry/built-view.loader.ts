import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The largest built view served: a view is one document with its script inlined (the official App class and its
 * dependencies come to about 650 KiB minified), read into memory once at boot and sent whole in `resources/read`.
 * @internal
 */
export const VIEW_MAX_BYTES = 4 * 1024 * 1024;

/** A view's name as `npm run build` writes it: the folder name under `<app>/views/`. */
const VIEW_NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * Reads the document `npm run build` bundled for `@McpApp({ view })`, once at boot: `<root>/<view>.html`. Returns the
 * HTML, or the problem to report with the other boot problems (no `views.root`, a name that is not a folder name,
 * not built yet, too large).
 * @internal
 */
export function loadBuiltView(root: string | undefined, view: string): { html: string } | { problem: string } {
  if (!VIEW_NAME.test(view) || view.includes('..'))
    return { problem: `view "${view}" is not a view folder's name (letters, digits, ".", "_" and "-")` };
  if (!root)
    return {
      problem: `view "${view}" needs McpModule.forRoot({ views: { root } }) (or MCP_VIEWS_DIR): the folder of built views`,
    };
  const file = join(resolve(root), `${view}.html`);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return {
      problem:
        `view "${view}" is not built: ${file} does not exist. \`npm run build -- <app>\` bundles <app>/views/${view}/ ` +
        `(index.html + main.ts) into it; a server run from its sources needs MCP_VIEWS_DIR pointed at the built views`,
    };
  }
  if (size > VIEW_MAX_BYTES)
    return { problem: `view "${view}" is ${size} bytes; a view is at most ${VIEW_MAX_BYTES} bytes (${file})` };
  return { html: readFileSync(file, 'utf8') };
}

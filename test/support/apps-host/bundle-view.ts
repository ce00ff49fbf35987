import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleScript, inlineScript } from './bundle-script';

/** Where a view's index.html asks for its script; the bundle replaces this element. */
const SCRIPT_TAG = /<script\b[^>]*\bsrc=["']\.\/main\.ts["'][^>]*>\s*<\/script>/i;

/**
 * A view folder (index.html + main.ts) as the one self-contained HTML document an `@McpApp` method returns: main.ts
 * and its imports (the official `App` class) bundled and inlined where index.html names `./main.ts`. The tests' own
 * stand-in for the build step; swap this one function for the build's output when views are bundled at build time.
 */
export async function bundleView(dir: string): Promise<string> {
  const html = await readFile(join(dir, 'index.html'), 'utf8');
  if (!SCRIPT_TAG.test(html)) throw new Error(`${dir}/index.html has no <script src="./main.ts"></script> to replace`);
  const script = inlineScript(await bundleScript(join(dir, 'main.ts')));
  return html.replace(SCRIPT_TAG, () => script);
}

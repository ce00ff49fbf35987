import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { buildViews } from '../../../scripts/lib/build-views.mjs';

const ROOT = resolve(__dirname, '../../..');

/**
 * A view folder (`<project root>/views/<name>/`: index.html + main.ts) as the one self-contained HTML document the
 * build serves: bundled by the build's own step (scripts/lib/build-views.mjs) into a temporary folder, read, and
 * the folder removed.
 */
export async function bundleView(dir: string): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'apps-host-view-'));
  try {
    await buildViews(ROOT, relative(ROOT, dirname(dirname(dir))), out);
    return await readFile(join(out, 'views', `${basename(dir)}.html`), 'utf8');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

// Whether a build is up to date: a fingerprint (path, size, modification time) of every input, kept beside the
// output. `npm start` and the contract gate skip `nest build` when it matches, so a second start of an unchanged
// app takes a second instead of a full compile, and a running replica's files are never rewritten for nothing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Not read by a build: tests, output, and the files the contract gate and the team write beside the code. Specs
// (`*.spec.ts`, `*.e2e-spec.ts`) too: every app's and fixture's tsconfig.app.json excludes `**/*spec.ts`, so editing
// one does not rebuild the fixtures before the next `npm run jest -- <folder>`.
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'test', 'mcp-contract.json', 'CHANGELOG.md']);
const skipped = (entry) => SKIPPED.has(entry) || entry.endsWith('spec.ts');

/**
 * A fingerprint of the files under `paths` (files or folders, relative to `root`; tests and build output left out)
 * and of `settings`, a text the caller derives from files it reads only in part (nest-cli.json).
 */
export function fingerprint(root, paths, settings = '') {
  const hash = createHash('sha256').update(process.version).update(`${settings}\n`);
  const visit = (path) => {
    if (!existsSync(path)) return hash.update(`missing ${relative(root, path)}\n`);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) if (!skipped(entry)) visit(join(path, entry));
    } else {
      hash.update(`${relative(root, path)} ${stat.size} ${stat.mtimeMs}\n`);
    }
  };
  for (const path of paths) visit(join(root, path));
  return hash.digest('hex');
}

/** True when `stampFile` holds `print` and every file in `outputs` exists. */
export function upToDate(stampFile, print, outputs) {
  if (!outputs.every((file) => existsSync(file)) || !existsSync(stampFile)) return false;
  return readFileSync(stampFile, 'utf8').trim() === print;
}

export function writeStamp(stampFile, print) {
  writeFileSync(stampFile, `${print}\n`);
}

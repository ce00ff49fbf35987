import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(__dirname, '../../libs/mcp/src');

/** Every non-spec source file under `folder` (relative to libs/mcp/src), with the lib folders it imports. */
function importsOf(folder: string): { file: string; folders: string[] }[] {
  const out: { file: string; folders: string[] }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) {
        const text = readFileSync(path, 'utf8');
        const folders = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(([, spec]) => {
          const target = relative(SRC, resolve(dirname(path), spec));
          return target.split('/')[0].replace(/\.ts$/, '');
        });
        out.push({ file: relative(SRC, path), folders: [...new Set(folders)] });
      }
    }
  };
  const root = join(SRC, folder);
  if (statSync(root).isDirectory()) walk(root);
  else {
    const text = readFileSync(root, 'utf8');
    const folders = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(([, spec]) =>
      relative(SRC, resolve(SRC, spec)).split('/')[0].replace(/\.ts$/, ''),
    );
    out.push({ file: folder, folders: [...new Set(folders)] });
  }
  return out;
}

const offending = (folder: string, forbidden: (f: string) => boolean) =>
  importsOf(folder).flatMap(({ file, folders }) => folders.filter(forbidden).map((f) => `${file} imports ${f}/`));

/**
 * Every first-level folder (and top-level file) of libs/mcp/src has one floor, bottom-up (floors.json, which
 * `node scripts/structure.mjs` also reads). A folder imports only its own floor and the floors below it, so each
 * layer can be read, tested and replaced on its own; what sits below learns of what sits above only through an
 * interface it owns (auth/'s `McpAuthFailureListener`, say, which observability/ implements). A new folder must be
 * given a floor in floors.json.
 */
const FLOORS: readonly (readonly string[])[] = (
  JSON.parse(readFileSync(join(__dirname, 'floors.json'), 'utf8')) as { floors: { names: string[] }[] }
).floors.map((floor) => floor.names);
const floorOf = (name: string) => FLOORS.findIndex((floor) => floor.includes(name.replace(/\.ts$/, '')));

describe('platform layers (libs/mcp/src)', () => {
  it('every first-level folder and file has a floor', () => {
    const unplaced = readdirSync(SRC).filter((name) => !name.endsWith('.spec.ts') && floorOf(name) < 0);
    expect(unplaced).toEqual([]);
  });

  it('imports go one way: no folder imports a floor above its own', () => {
    const up = readdirSync(SRC)
      .filter((name) => !name.endsWith('.spec.ts') && floorOf(name) >= 0)
      .flatMap((name) =>
        importsOf(name).flatMap(({ file, folders }) =>
          folders
            .filter((f) => floorOf(f) > floorOf(name))
            .map((f) => `${file} imports ${f} (floor ${floorOf(f)} above ${floorOf(name)})`),
        ),
      );
    expect(up).toEqual([]);
  });

  it('wire/ is the ground floor: it imports nothing else of the platform', () => {
    expect(offending('wire', (f) => f !== 'wire')).toEqual([]);
  });

  it('http-adapter/ is the one HTTP edge: it imports nothing else of the platform, and nothing else imports express', () => {
    expect(offending('http-adapter', (f) => f !== 'http-adapter')).toEqual([]);
    const express = importsOf('.').filter(({ file }) =>
      /from '(express|@nestjs\/platform-express)'/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(express.map(({ file }) => file)).toEqual([]);
  });

  it('every call kind runs through the one invocation stage: no handler builds a call context itself', () => {
    const handlers = importsOf('protocol').filter(({ file }) => file.includes('handlers/'));
    const own = handlers.filter(({ file }) =>
      /createCallContext|limiter\.run\(|admission\.call\(/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(own.map(({ file }) => file)).toEqual([]);
  });
});

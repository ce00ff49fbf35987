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
          return target.includes('/') ? target.split('/')[0] : '.';
        });
        out.push({ file: relative(SRC, path), folders: [...new Set(folders)] });
      }
    }
  };
  walk(join(SRC, folder));
  return out;
}

const offending = (folder: string, forbidden: (f: string) => boolean) =>
  importsOf(folder).flatMap(({ file, folders }) => folders.filter(forbidden).map((f) => `${file} imports ${f}/`));

/**
 * One direction of flow in the platform: wire -> stores -> sessions -> pipeline -> tasks -> protocol -> transports. A
 * lower folder never imports a higher one, so each layer can be read, tested and replaced on its own. pipeline/ (the
 * one invocation stage and the Nest pipeline wrapping) sits under the method router that calls it; tasks/ runs calls
 * through that stage on the queue, and the router's handlers create and find them.
 */
describe('platform layers (libs/mcp/src)', () => {
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

  it('sessions/ never imports the protocol, the transports or the registry above it', () => {
    const above = ['protocol', 'transports', 'registry', 'discovery', 'decorators', 'health', 'service-page'];
    expect(offending('sessions', (f) => above.includes(f))).toEqual([]);
  });

  it('pipeline/ never imports the method router or the transports above it', () => {
    expect(offending('pipeline', (f) => ['protocol', 'transports', 'discovery'].includes(f))).toEqual([]);
  });

  it('every call kind runs through the one invocation stage: no handler builds a call context itself', () => {
    const handlers = importsOf('protocol').filter(({ file }) => file.includes('handlers/'));
    const own = handlers.filter(({ file }) =>
      /createCallContext|limiter\.run\(|admission\.call\(/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(own.map(({ file }) => file)).toEqual([]);
  });

  it('tasks/ sits between the invocation stage and the router: it never imports the router or transports', () => {
    expect(offending('tasks', (f) => ['protocol', 'transports', 'discovery'].includes(f))).toEqual([]);
  });

  it('stores/ never imports the layers above it (tasks live in stores, their lifecycle in tasks/)', () => {
    const above = ['sessions', 'pipeline', 'tasks', 'protocol', 'transports', 'registry', 'discovery'];
    expect(offending('stores', (f) => above.includes(f))).toEqual([]);
  });

  it('admission/ sits under sessions/ and above stores/ and auth/: it never imports a layer above it', () => {
    const above = [
      'sessions',
      'pipeline',
      'tasks',
      'protocol',
      'transports',
      'registry',
      'discovery',
      'observability',
      'health',
      'context',
    ];
    expect(offending('admission', (f) => above.includes(f))).toEqual([]);
  });

  it('protocol/ never imports the transports', () => {
    expect(offending('protocol', (f) => f === 'transports')).toEqual([]);
  });
});

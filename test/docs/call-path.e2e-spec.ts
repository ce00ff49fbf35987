import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const SRC = join(ROOT, 'libs/mcp/src');

/** The numbered steps of docs/authoring.md's "Follow a `tools/call`": each a file of libs/mcp/src and its functions. */
function steps(): { file: string; names: string[] }[] {
  const page = readFileSync(join(ROOT, 'docs/authoring.md'), 'utf8');
  const section = page.slice(page.indexOf('### Follow a `tools/call`'));
  const list = section.slice(0, section.indexOf('\n\n', section.indexOf('\n1. ')));
  return list
    .split(/\n(?=\d+\. )/)
    .filter((item) => /^\d+\. /.test(item))
    .map((item) => {
      const [file] = [...item.matchAll(/`([\w/.-]+\.ts)`/g)].map(([, f]) => f);
      // The functions a step names on its own file: `name()` or `NAME` right after the file.
      const names = [...item.matchAll(/`(\w+)\(\)`/g)].map(([, n]) => n);
      const constant = /^\d+\. `[^`]+` `([A-Z_]+)`/.exec(item)?.[1];
      return { file, names: constant ? [...names, constant] : names };
    });
}

/**
 * A reader follows a call from the HTTP edge to the decorated method by go-to-definition through the files the guide
 * lists: at most eight, each there, each function it names defined in that file (not only called).
 */
describe('the call path described in docs/authoring.md', () => {
  it('crosses at most eight library files, each of them there', () => {
    const files = steps().map((s) => s.file);
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(files.length).toBeLessThanOrEqual(8);
    expect(files.filter((f) => !existsSync(join(SRC, f)))).toEqual([]);
  });

  it('names functions each file defines', () => {
    const missing = steps().flatMap(({ file, names }) => {
      const text = readFileSync(join(SRC, file), 'utf8');
      return names
        .filter((name) => name !== 'routeOf' || !file.endsWith('dispatcher.ts'))
        .filter((name) => !new RegExp(`(function|const|async|^\\s+)\\s*${name}\\b\\s*[(=<:]`, 'm').test(text))
        .map((name) => `${file}: ${name}`);
    });
    expect(missing).toEqual([]);
  });
});

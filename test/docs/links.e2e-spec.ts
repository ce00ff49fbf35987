import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * The README and the guides are all a team gets with this template: they must stand alone. Every relative link in
 * README.md, docs/*.md and bench/*.md resolves to a file of this repository, and every `#anchor` to a heading (by
 * GitHub's slug rules) or an explicit `<a id>`/`<a name>` of its file; no link leaves the repository (a team has no
 * `../shared`) or points at web pages of the corporate standard. The README stays a short entry point (at most 320
 * lines) that links every guide in docs/.
 */
const ROOT = resolve(__dirname, '../..');
const README = resolve(ROOT, 'README.md');
const markdownIn = (dir: string): string[] =>
  readdirSync(resolve(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => resolve(ROOT, dir, f));
const GUIDES = markdownIn('docs');
const FILES = [README, ...GUIDES, ...markdownIn('bench')];
const show = (file: string) => relative(ROOT, file);

/** Lines outside fenced code blocks, with their numbers: where headings and links live. */
function prose(file: string): { n: number; line: string }[] {
  const out: { n: number; line: string }[] = [];
  let fence: string | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) fence = fence ? undefined : marker;
      else if (!fence) out.push({ n: i + 1, line });
    });
  return out;
}

/** GitHub's heading ids: rendered text, lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorCache.get(file);
  if (found) return found;
  found = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of prose(file)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count ? `${base}-${count}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1]);
  }
  anchorCache.set(file, found);
  return found;
}

interface Link {
  file: string;
  n: number;
  text: string;
  target: string;
}
function links(file: string): Link[] {
  const out: Link[] = [];
  for (const { n, line } of prose(file)) {
    const text = line.replace(/(`+)[^`]*?\1/g, (code) => code.replace(/[[\]()]/g, ' '));
    for (const m of text.matchAll(/\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ file, n, text: m[1], target: m[2] });
    }
  }
  return out;
}

/** What is wrong with one link, or undefined. */
function problem({ file, text, target }: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!/^(https?|mailto):/i.test(target)) return 'leaves the repository (not a relative link)';
    return /corporate|standard/i.test(`${target} ${text}`) ? 'links to the corporate standard on the web' : undefined;
  }
  const [path, anchor] = target.split('#', 2);
  if (path.startsWith('/')) return 'is absolute: use a path relative to the file';
  const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
  const inRepo = relative(ROOT, resolved);
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return 'leaves the repository';
  if (!existsSync(resolved)) return `names ${inRepo}, which does not exist`;
  if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(decodeURIComponent(anchor)))
    return `names #${anchor}, which is no heading or <a id> of ${inRepo}`;
  return undefined;
}

describe('README.md, docs/ and bench/*.md stand alone', () => {
  it('finds the files to check', () => {
    expect(GUIDES.length).toBeGreaterThan(5);
    expect(FILES.map(show)).toContain('bench/HISTORY.md');
  });

  it('every link resolves inside the repository, anchors included, and none points at the standard', () => {
    const broken = FILES.flatMap(links)
      .map((link) => ({ link, why: problem(link) }))
      .filter(({ why }) => why !== undefined)
      .map(({ link, why }) => `${show(link.file)}:${link.n} (${link.target}) ${why}`);
    expect(broken).toEqual([]);
  });

  it('no text refers to files outside the repository', () => {
    const outside = FILES.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\.\.\/shared|\/work\/shared/.test(line) ? [`${show(file)}:${i + 1}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it('keeps the README at most 320 lines', () => {
    expect(readFileSync(README, 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(320);
  });

  it('links every guide in docs/ from the README', () => {
    const linked = new Set(
      links(README)
        .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target))
        .map((link) => resolve(ROOT, decodeURIComponent(link.target.split('#')[0]))),
    );
    expect(GUIDES.filter((guide) => !linked.has(guide)).map(show)).toEqual([]);
  });
});

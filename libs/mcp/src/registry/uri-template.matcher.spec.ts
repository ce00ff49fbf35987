import { UriTemplateMatcher } from './uri-template.matcher';

const m = (template: string, uri: string) => new UriTemplateMatcher(template).match(uri);

/** Traversal and smuggling attempts, as they would appear in a URI. */
const ATTACKS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc',
  '%2E%2E',
  '%2e%2e%2f',
  '..',
  '.',
  '%252e%252e%252f',
  'a%3Fb%23c',
  'a%00b',
  '%00',
  '..%5C..%5Cwindows',
  '..%5C',
  '%C0%AE%C0%AE',
  '%C0%AE%C0%AE%C0%AF',
  '%E0%80%AE',
  '%zz',
  '%',
  '%2',
  'a%0D%0Ab',
  '%ED%A0%80', // a lone surrogate
  '%EF%BC%8E%EF%BC%8E%EF%BC%8F', // fullwidth ．．／, which NFKC folds to ../
  '%EF%BC%8E%EF%BC%8E', // fullwidth ．．
  'a%E2%80%AEgpj.exe', // right-to-left override
  'a%E2%80%A8b', // line separator
  'caf\u00e9', // a raw (not percent-encoded) non-ASCII character is no URI character
];

/** Each form, with `{}` where the attack goes. */
const FORMS: [string, string][] = [
  ['d://x/{v}', 'd://x/{}'],
  ['d://x/{+v}', 'd://x/{}'],
  ['d://x/{+v}', 'd://x/a/{}/b'],
  ['d://x/{+v}', 'd://x/a/{}'],
  ['d://x/{#v}', 'd://x/#{}'],
  ['d://x/{#v}', 'd://x/#a/{}'],
  ['d://x/f{.v}', 'd://x/f.{}'],
  ['d://x/f{.v*}', 'd://x/f.a.{}'],
  ['d://x{/v}', 'd://x/{}'],
  ['d://x{/v*}', 'd://x/a/{}/b'],
  ['d://x{/v*}', 'd://x/{}'],
  ['d://x/{v}{;w}', 'd://x/a;w={}'],
  ['d://x/s{?q}', 'd://x/s?q={}'],
  ['d://x/s{?q}{&r}', 'd://x/s?q=a&r={}'],
  ['d://x/{a,b}', 'd://x/a,{}'],
  ['d://x/{v*}', 'd://x/a,{}'],
];

describe('UriTemplateMatcher', () => {
  it('gives a simple {var} its decoded value when it holds no reserved character', () => {
    expect(m('desk://docs/{name}', 'desk://docs/hello-world.md')).toEqual({ name: 'hello-world.md' });
    expect(m('desk://docs/{name}', 'desk://docs/caf%C3%A9%20au%20lait')).toEqual({ name: 'café au lait' });
    expect(m('desk://docs/{name}', 'desk://docs/%E6%96%87%E6%9B%B8%F0%9F%93%84')).toEqual({ name: '文書📄' });
    expect(m('desk://docs/{name}', 'desk://docs/50%25')).toEqual({ name: '50%' });
    expect(m('desk://docs/{name}', 'desk://docs/...')).toEqual({ name: '...' });
    expect(m('desk://docs/{name}', 'desk://docs/a/b')).toBeNull();
    expect(m('desk://docs/{name}', 'desk://docs/..%2F..%2Fetc%2Fpasswd')).toBeNull();
    expect(m('desk://docs/{name}', 'desk://docs/a%3Fb%23c')).toBeNull();
  });

  it.each(ATTACKS)('refuses %s through every form', (attack) => {
    for (const [template, shape] of FORMS) {
      const uri = shape.replace('{}', attack);
      expect({ template, uri, match: m(template, uri) }).toEqual({ template, uri, match: null });
    }
  });

  it('lets {+var}, {#var} and {/var*} carry relative paths, never with dot segments or a root', () => {
    expect(m('d://files/{+path}', 'd://files/docs/guide/intro.md')).toEqual({ path: 'docs/guide/intro.md' });
    expect(m('d://files/{+path}', 'd://files/q?a=1&b=2')).toEqual({ path: 'q?a=1&b=2' });
    expect(m('d://files/{+path}', 'd://files/docs/../secret')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/./x')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/..')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/..%5Csecret')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs%2F..%2Fsecret')).toBeNull();
    expect(m('d://files/{+path}', 'd://files//etc/passwd')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/%5Cserver%5Cshare')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/C:/Windows')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/%2e%2e/secret')).toBeNull();
    expect(m('d://page{#section}', 'd://page#a/b')).toEqual({ section: 'a/b' });
    expect(m('d://page{#section}', 'd://page#a/../b')).toBeNull();
    expect(m('d://page{#section}', 'd://page#/etc')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree/a/b/c')).toEqual({ path: 'a/b/c' });
    expect(m('d://tree{/path*}', 'd://tree/a/../c')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree/a%2Fb/c')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree//etc/passwd')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree/a//b')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree/')).toBeNull();
    // Dots inside a name are fine.
    expect(m('d://tree{/path*}', 'd://tree/v1..2/file.txt')).toEqual({ path: 'v1..2/file.txt' });
  });

  it('never joins an exploded label list into a dot segment', () => {
    expect(m('d://x/file{.ext*}', 'd://x/file.tar.gz')).toEqual({ ext: 'tar.gz' });
    expect(m('d://x/file{.ext*}', 'd://x/file...')).toBeNull();
    expect(m('d://x/file{.ext*}', 'd://x/file.a..')).toBeNull();
  });

  it('reads the other forms, with their optional parts', () => {
    expect(m('d://x/{a,b}', 'd://x/1,2')).toEqual({ a: '1', b: '2' });
    expect(m('d://x/report{.format}', 'd://x/report.json')).toEqual({ format: 'json' });
    expect(m('d://x/s{?q,limit}', 'd://x/s?q=vpn%20down&limit=5')).toEqual({ q: 'vpn down', limit: '5' });
    expect(m('d://x/s{?q,limit}', 'd://x/s?q=vpn')).toEqual({ q: 'vpn' });
    expect(m('d://x/s{?q,limit}', 'd://x/s')).toEqual({});
    expect(m('d://x/s{?q,limit}', 'd://x/s?limit=5&q=vpn')).toBeNull();
    expect(m('d://x/s{?q}{&r}', 'd://x/s?q=1&r=2')).toEqual({ q: '1', r: '2' });
    expect(m('d://x/m{;v}', 'd://x/m;v=2')).toEqual({ v: '2' });
    expect(m('d://x/m{;v}', 'd://x/m;v')).toEqual({ v: '' });
    expect(m('d://x/m{;v}', 'd://x/m;v=')).toBeNull(); // an empty value expands as ";v"
    expect(m('d://x/{id:3}', 'd://x/abc')).toEqual({ id: 'abc' });
    expect(m('d://x/{id:3}', 'd://x/abcd')).toBeNull();
    // Greedy, first alternative first, as a regex would: `.` is unreserved, so {name} takes it.
    expect(m('d://x/{name}{.ext}', 'd://x/report.csv')).toEqual({ name: 'report.csv' });
    expect(m('d://x/{+path}/meta', 'd://x/a/b/meta')).toEqual({ path: 'a/b' });
  });

  it('never throws on hostile input, and refuses what does not expand back to the same URI', () => {
    expect(m('d://x/{v}', 'd://x/%41')).toBeNull(); // "A" expands as "A", not "%41"
    expect(m('d://x/{v}', `d://x/${'%'.repeat(2000)}`)).toBeNull();
    expect(m('d://x/{v}', 'd://x/\u202eexe')).toBeNull();
    expect(() => new UriTemplateMatcher('d://x/{v')).toThrow(/not closed/);
    expect(() => new UriTemplateMatcher('d://x/{v w}')).toThrow(/not a variable/);
  });

  it('answers in time linear in the URI length, whatever the template (no regex backtracking)', () => {
    const cases: [string, string][] = [
      ['d://x/{+l*}/end', `d://x/${','.repeat(2000)}!`],
      ['d://x/{#l*}/end', `d://x/#${','.repeat(2000)}!`],
      ['d://x/file{.e*}/end', `d://x/file${'.'.repeat(2000)}!`],
      ['d://x/{+a}/{+b}/{+c}/{+d}/end', `d://x/${'/'.repeat(2000)}!`],
      ['d://x/{a}{b}{c}{d}/end', `d://x/${'a'.repeat(2000)}!`],
      ['d://x/{a}{.b}{;c}{?d}', `d://x/${'a.'.repeat(1000)}!`],
    ];
    for (const [template, uri] of cases) {
      const started = performance.now();
      expect(m(template, uri)).toBeNull();
      expect({ template, slow: performance.now() - started > 500 }).toEqual({ template, slow: false });
    }
  });
});

import { UriTemplateMatcher } from './uri-template.matcher';

const m = (template: string, uri: string) => new UriTemplateMatcher(template).match(uri);

/** Traversal and smuggling attempts, as they would appear in a URI. */
const ATTACKS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc',
  '%2e%2e',
  '..',
  '.',
  '%252e%252e%252f',
  'a%3Fb%23c',
  'a%00b',
  '..%5C..%5Cwindows',
  '%C0%AE%C0%AE',
  '%zz',
  '%',
  'a%0D%0Ab',
];

describe('UriTemplateMatcher', () => {
  it('gives a simple {var} its decoded value when it holds no reserved character', () => {
    expect(m('desk://docs/{name}', 'desk://docs/hello-world.md')).toEqual({ name: 'hello-world.md' });
    expect(m('desk://docs/{name}', 'desk://docs/caf%C3%A9%20au%20lait')).toEqual({ name: 'café au lait' });
    expect(m('desk://docs/{name}', 'desk://docs/a/b')).toBeNull();
  });

  it.each(ATTACKS)('refuses %s through every form', (attack) => {
    const forms: [string, string][] = [
      ['d://x/{v}', `d://x/${attack}`],
      ['d://x/{+v}', `d://x/${attack}`],
      ['d://x/{+v}', `d://x/a/${attack}/b`],
      ['d://x/{#v}', `d://x/#${attack}`],
      ['d://x/f{.v}', `d://x/f.${attack}`],
      ['d://x{/v}', `d://x/${attack}`],
      ['d://x{/v*}', `d://x/a/${attack}/b`],
      ['d://x/{v}{;w}', `d://x/a;w=${attack}`],
      ['d://x/s{?q}', `d://x/s?q=${attack}`],
      ['d://x/s{?q}{&r}', `d://x/s?q=a&r=${attack}`],
      ['d://x/{a,b}', `d://x/a,${attack}`],
    ];
    for (const [template, uri] of forms) {
      expect({ template, uri, match: m(template, uri) }).toEqual({ template, uri, match: null });
    }
  });

  it('lets {+var}, {#var} and {/var*} carry slashes, never as dot segments', () => {
    expect(m('d://files/{+path}', 'd://files/docs/guide/intro.md')).toEqual({ path: 'docs/guide/intro.md' });
    expect(m('d://files/{+path}', 'd://files/docs/../secret')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/./x')).toBeNull();
    expect(m('d://files/{+path}', 'd://files/docs/..%5Csecret')).toBeNull();
    expect(m('d://page{#section}', 'd://page#a/b')).toEqual({ section: 'a/b' });
    expect(m('d://tree{/path*}', 'd://tree/a/b/c')).toEqual({ path: 'a/b/c' });
    expect(m('d://tree{/path*}', 'd://tree/a/../c')).toBeNull();
    expect(m('d://tree{/path*}', 'd://tree/a%2Fb/c')).toBeNull();
    // Dots inside a name are fine.
    expect(m('d://tree{/path*}', 'd://tree/v1..2/file.txt')).toEqual({ path: 'v1..2/file.txt' });
  });

  it('reads the other forms, with their optional parts', () => {
    expect(m('d://x/{a,b}', 'd://x/1,2')).toEqual({ a: '1', b: '2' });
    expect(m('d://x/report{.format}', 'd://x/report.json')).toEqual({ format: 'json' });
    expect(m('d://x/s{?q,limit}', 'd://x/s?q=vpn%20down&limit=5')).toEqual({ q: 'vpn down', limit: '5' });
    expect(m('d://x/s{?q,limit}', 'd://x/s?q=vpn')).toEqual({ q: 'vpn' });
    expect(m('d://x/s{?q,limit}', 'd://x/s?limit=5&q=vpn')).toBeNull();
    expect(m('d://x/m{;v}', 'd://x/m;v=2')).toEqual({ v: '2' });
    expect(m('d://x/{id:3}', 'd://x/abc')).toEqual({ id: 'abc' });
    expect(m('d://x/{id:3}', 'd://x/abcd')).toBeNull();
  });

  it('never throws on hostile input, and refuses what does not expand back to the same URI', () => {
    expect(m('d://x/{v}', 'd://x/%41')).toBeNull(); // "A" expands as "A", not "%41"
    expect(m('d://x/{v}', `d://x/${'%'.repeat(10_000)}`)).toBeNull();
    expect(m('d://x/{v}', 'd://x/\u202eexe')).toBeNull();
    expect(() => new UriTemplateMatcher('d://x/{v')).toThrow(/not closed/);
    expect(() => new UriTemplateMatcher('d://x/{v w}')).toThrow(/not a variable/);
  });
});

import { nestingExceeds, valueNestingExceeds } from './json-depth';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('nestingExceeds', () => {
  it('counts arrays and objects, up to the limit inclusive', () => {
    expect(nestingExceeds(nested(64), 64)).toBe(false);
    expect(nestingExceeds(nested(65), 64)).toBe(true);
    expect(nestingExceeds(`{"a":${nested(63)}}`, 64)).toBe(false);
    expect(nestingExceeds(`{"a":{"b":${nested(63)}}}`, 64)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const brackets = '['.repeat(200);
    expect(nestingExceeds(JSON.stringify({ text: brackets }), 8)).toBe(false);
    expect(nestingExceeds(JSON.stringify({ text: `say \\"${brackets}\\" \\\\`, more: brackets }), 8)).toBe(false);
    expect(nestingExceeds(JSON.stringify([`\\`, '[[[[[[[[[[']), 2)).toBe(false);
    expect(nestingExceeds(`["\\\\", ${nested(10)}]`, 8)).toBe(true);
  });

  it('agrees with JSON.parse on what a string is, for texts JSON.stringify writes', () => {
    for (const s of ['', '"', '\\', '\\"', '["', '\\\\"[', '\u2028[']) {
      const text = JSON.stringify({ s, a: [[[1]]] });
      expect(nestingExceeds(text, 4)).toBe(false);
      expect(nestingExceeds(text, 3)).toBe(true);
    }
  });

  it('scans a 400,000-level body without recursion', () => {
    expect(nestingExceeds(`{"_meta":${nested(400_000)}}`, 64)).toBe(true);
  });
});

describe('valueNestingExceeds', () => {
  it('measures a parsed value like the text it came from', () => {
    expect(valueNestingExceeds(JSON.parse(nested(64)), 64)).toBe(false);
    expect(valueNestingExceeds(JSON.parse(nested(65)), 64)).toBe(true);
    expect(valueNestingExceeds({ a: [{ b: [1] }], c: 'x' }, 4)).toBe(false);
    expect(valueNestingExceeds({ a: [{ b: [1] }], c: 'x' }, 3)).toBe(true);
  });
});

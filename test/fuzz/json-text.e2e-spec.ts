import * as fc from 'fast-check';
import { isJsonText, nestsDeeperThan } from '../support/json-text';
import { SEED } from '../support/fuzz-harness';

/** Whether JSON.parse takes `text`: what isJsonText must say without parsing. */
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The deepest nesting of a parsed value (arrays and objects). */
const depthOf = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

/** Characters that make or break JSON, inserted anywhere in valid text. */
const BREAKERS = [...'[]{},:"\\ \t\n\r.eE+-0123456789tfnulx\u0001\u00a0\ufeff', '\\u12', '\\u00e9', '1e', '-0'];

/**
 * The fuzz oracle's scans (support/json-text.ts) decide, for every deeply nested fuzzed body, between "refused for its
 * depth" and "not JSON": they must agree with JSON.parse and with the nesting of the parsed value, on valid JSON and on
 * JSON broken one character at a time.
 */
describe("the fuzz oracle's JSON text scans", () => {
  const texts = fc.oneof(
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
    fc
      .tuple(
        fc.constantFrom(['[', ']'], ['{"a":', '}'], ['[{"k":', '}]'], ['{"a":[', ']}']),
        fc.integer({ min: 1, max: 200 }),
      )
      .map(([[open, close], n]) => `${open.repeat(n)}${close === ']' ? '' : '1'}${close.repeat(n)}`),
  );

  it('isJsonText says what JSON.parse does, on valid and broken text', () => {
    fc.assert(
      fc.property(
        texts,
        fc.nat(),
        fc.constantFrom(...BREAKERS),
        fc.constantFrom('insert', 'delete', 'cut'),
        (t, at, b, how) => {
          const i = at % (t.length + 1);
          const broken =
            how === 'insert'
              ? t.slice(0, i) + b + t.slice(i)
              : how === 'delete'
                ? t.slice(0, i) + t.slice(i + 1)
                : t.slice(0, i);
          expect(isJsonText(t)).toBe(true);
          expect(isJsonText(broken)).toBe(parses(broken));
        },
      ),
      { seed: SEED, numRuns: 5_000 },
    );
    for (const t of [
      '',
      ' ',
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      '1e',
      '1e+',
      '"\\u12g4"',
      '"\u0000"',
      '[1,]',
      '{"a":1,}',
      '{1:2}',
      '\ufeff1',
      'nulls',
      '[1] [2]',
    ])
      expect(isJsonText(t)).toBe(false);
  });

  it('nestsDeeperThan measures the nesting of valid text, strings and escapes skipped', () => {
    fc.assert(
      fc.property(texts, fc.nat({ max: 210 }), (t, limit) => {
        expect(nestsDeeperThan(t, limit)).toBe(depthOf(JSON.parse(t)) > limit);
      }),
      { seed: SEED, numRuns: 2_000 },
    );
    expect(nestsDeeperThan('{"a":"[[[\\"[[","b":[{}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":"[[[\\"[[","b":[{}]}', 2)).toBe(true);
  });
});

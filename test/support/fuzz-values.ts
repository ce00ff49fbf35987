import * as fc from 'fast-check';

/**
 * JSON values for the fuzzers, built as JSON text (not via JSON.stringify) so the wire can carry what JS values
 * cannot: `-0`, `1e400`, duplicate and `__proto__` keys, nesting far deeper than the stack.
 */

/** Verbatim JSON text inside a generated value. */
export class Raw {
  constructor(readonly text: string) {}
}
/** A JSON object as ordered entries, so duplicate and `__proto__` keys reach the wire. */
export class Obj {
  constructor(readonly entries: [string, unknown][]) {}
}

export function toText(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toText(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toText).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'then',
  'toJSON',
];
export const key = fc.oneof(
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const oddChars = fc.constantFrom(
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ude00b',
  '\ud83d\ude00',
  '\u0000',
  '\u2028\u2029',
  '\ufeff',
  '\uffff',
  'e\u0301',
  '\u202e',
);
export const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 16 }) },
  fc.string({ unit: 'binary', maxLength: 16 }),
  oddChars,
  fc.integer({ min: 257, max: 20_000 }).map((n) => 'x'.repeat(n)),
);
export const oddNumber = fc
  .constantFrom(
    '-0',
    '-0.0',
    '0e0',
    '1e400',
    '-1e400',
    '1e-400',
    '9007199254740993',
    '123456789012345678901234567890',
    '1.0',
    '1.5',
    '-1',
    '1E2',
    '4294967296',
    '-9007199254740992',
    '1e21',
  )
  .map((t) => new Raw(t));
const NESTS: [string, string, string][] = [
  ['[', ']', ''],
  ['{"a":', '}', '1'],
  ['{"a":[', ']}', ''],
  ['{"__proto__":', '}', 'null'],
  ['[{"constructor":', '}]', '{}'],
];
/** Nesting 100 to 100,000 levels deep, kept well under the body limit. */
export const deep = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100, max: 2_000 }) }, fc.integer({ min: 2_000, max: 100_000 })),
    fc.constantFrom(...NESTS),
  )
  .map(([d, [open, close, inner]]) => {
    const depth = Math.min(d, Math.floor(600_000 / (open.length + close.length)));
    return new Raw(open.repeat(depth) + inner + close.repeat(depth));
  });
const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), oddNumber, text);
export const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((e) => new Obj(e)) },
  ),
}));

/** An object with some of `keys` (or odd keys) set to plausible or garbage values. */
export const plausible = fc.oneof(
  fc.constantFrom('HD-1', 'HD-2', 'HD-999', 'vpn', 'open', 'closed', 'high', 'low', 'network', 'friendly', ''),
  fc.integer({ min: -5, max: 200 }),
  value,
);
export const someOf = (keys: string[], v: fc.Arbitrary<unknown> = plausible) =>
  fc
    .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, key), v), { maxLength: 5 })
    .map((e) => new Obj(e));
export const objOrGarbage = (keys: string[], v?: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: someOf(keys, v) }, value);
export const obj = (fields: Record<string, fc.Arbitrary<unknown>>, freq = 4) =>
  fc
    .tuple(
      ...Object.entries(fields).map(([k, a]) =>
        fc.option(
          a.map((x) => [k, x] as [string, unknown]),
          { freq },
        ),
      ),
    )
    .map((e) => new Obj(e.filter((x) => x !== null) as [string, unknown][]));

const NON_JSON = [
  '',
  ' ',
  '{',
  '}',
  '[',
  'null',
  'true',
  '1',
  '"str"',
  'NaN',
  'Infinity',
  "{'a':1}",
  '{"jsonrpc":"2.0"',
  '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage',
  '{"a":1}{"b":2}',
  '{"jsonrpc":"2.0","id":1,"method":"ping",}',
  '\u0000',
  '<html>',
  'GET / HTTP/1.1',
];
/** Bodies that are not JSON, or not one JSON value. */
export const nonJson = fc.oneof(
  fc.constantFrom(...NON_JSON),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);
/** Byte sequences that are not UTF-8. */
export const BAD_UTF8 = [
  [0xff],
  [0xfe],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
].map((b) => Buffer.from(b));

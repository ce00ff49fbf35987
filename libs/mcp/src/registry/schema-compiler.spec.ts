import Ajv2020 from 'ajv/dist/2020';
import { SchemaCompiler } from './schema-compiler';

describe('SchemaCompiler (JSON Schema 2020-12, SEP-2106)', () => {
  const compiler = new SchemaCompiler();

  it('keeps and enforces $defs/$anchor, $ref, composition and conditional keywords', () => {
    const validate = compiler.compile({
      type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object', properties: { city: { type: 'string' } } } },
      properties: { address: { $ref: '#/$defs/address' }, phone: { type: 'string' }, email: { type: 'string' } },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { required: ['address'] },
      then: { properties: { address: { required: ['city'] } } },
    });
    expect(validate({ phone: '1' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ email: 'a', address: {} })).toBe(false);
    expect(validate({ email: 'a', address: { city: 'Oslo' } })).toBe(true);
  });

  it('never resolves a $ref outside the schema: the boot stops instead', () => {
    expect(() =>
      compiler.compile({ type: 'object', properties: { a: { $ref: 'https://example.com/evil.json' } } }),
    ).toThrow(/points outside the schema/);
    expect(() => compiler.compile({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toThrow(
      /does not resolve inside the schema/,
    );
  });

  it('checks a schema at boot and compiles it on first use, with the errors of the last failure', () => {
    const ajvCompile = jest.spyOn(Ajv2020.prototype, 'compile');
    try {
      const validate = compiler.compile({
        type: 'object',
        $defs: { id: { type: 'string', pattern: '^T-[0-9]+$' } },
        properties: { id: { $ref: '#/$defs/id' }, note: { const: { $ref: '#/not/a/reference' } } },
        required: ['id'],
      });
      expect(ajvCompile).not.toHaveBeenCalled();
      expect(validate({ id: 'T-1' })).toBe(true);
      expect(validate({ id: 'nope' })).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ instancePath: '/id', keyword: 'pattern' });
      expect(ajvCompile).toHaveBeenCalledTimes(1);
    } finally {
      ajvCompile.mockRestore();
    }
  });

  it('compiles at boot a schema whose references a pointer walk cannot check (anchors), and still refuses a broken one', () => {
    expect(() => compiler.compile({ type: 'object', properties: { a: { $ref: '#missing-anchor' } } })).toThrow();
  });

  it('refuses schemas too deep or too large to validate cheaply', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { anyOf: [deep] };
    expect(() => compiler.compile({ type: 'object', properties: { a: deep } })).toThrow(/deeper than 32/);
    const wide = Object.fromEntries(Array.from({ length: 2_100 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(() => compiler.compile({ type: 'object', properties: wide })).toThrow(/more than 2000/);
  });
});

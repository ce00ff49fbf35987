import { MASK, maskArguments, sensitivePaths } from './argument-masker';

describe('argument masking', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      phone: { type: 'string', writeOnly: true },
      pin: { type: 'string', format: 'password' },
      contacts: {
        type: 'array',
        items: { type: 'object', properties: { email: { type: 'string', writeOnly: true }, name: { type: 'string' } } },
      },
      nested: { type: 'object', properties: { ssn: { type: 'string', writeOnly: true } } },
    },
  };

  it('finds writeOnly and password-format paths, through arrays and nested objects', () => {
    expect([...sensitivePaths(schema)].sort()).toEqual(['contacts.*.email', 'nested.ssn', 'phone', 'pin']);
  });

  it('masks marked fields and secret-looking names, keeps the rest, never mutates the input', () => {
    const args = {
      title: 'Printer on fire',
      phone: '+41 79 555 01 01',
      pin: '1234',
      contacts: [{ email: 'ada@example.com', name: 'Ada' }],
      nested: { ssn: '756.1234.5678.97' },
      apiKey: 'k-123',
      extra: { password: 'hunter2', accessToken: 'eyJ' },
    };
    const copy = JSON.parse(JSON.stringify(args));
    const masked = maskArguments(args, sensitivePaths(schema)) as Record<string, any>;
    expect(masked).toEqual({
      title: 'Printer on fire',
      phone: MASK,
      pin: MASK,
      contacts: [{ email: MASK, name: 'Ada' }],
      nested: { ssn: MASK },
      apiKey: MASK,
      extra: { password: MASK, accessToken: MASK },
    });
    expect(args).toEqual(copy);
  });

  it('bounds what reaches a log line: long strings, long arrays, deep nesting', () => {
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 10; i++) cur = (cur.d = {}) as Record<string, unknown>;
    const masked = maskArguments(
      { s: 'x'.repeat(5000), a: Array.from({ length: 100 }, (_, i) => i), deep },
      new Set(),
    ) as Record<string, any>;
    expect(masked.s.length).toBeLessThan(250);
    expect(masked.a).toHaveLength(21);
    expect(JSON.stringify(masked.deep)).toContain('[…]');
  });
});

describe('argument masking: nested DTOs, maps and hostile input', () => {
  it('follows $ref into $defs and walks maps and tuples', () => {
    const schema = {
      type: 'object',
      properties: {
        customer: { $ref: '#/$defs/Customer' },
        notes: { type: 'object', additionalProperties: { type: 'string', writeOnly: true } },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string', format: 'password' }] },
      },
      $defs: {
        Customer: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            ssn: { type: 'string', writeOnly: true },
            self: { $ref: '#/$defs/Customer' },
          },
        },
      },
    };
    const paths = sensitivePaths(schema);
    expect([...paths]).toEqual(expect.arrayContaining(['customer.ssn', 'notes.*', 'pair.*']));
    const masked = maskArguments(
      { customer: { name: 'Ada', ssn: '756.1234' }, notes: { a: 'x', b: 'y' } },
      paths,
    ) as Record<string, any>;
    expect(masked).toEqual({ customer: { name: 'Ada', ssn: MASK }, notes: { a: MASK, b: MASK } });
  });

  it('keeps a "__proto__" key as data, and bounds the number and length of keys', () => {
    const hostile = JSON.parse('{"__proto__":{"ssn":"1"},"note":"hi"}');
    const masked = maskArguments(hostile, new Set()) as Record<string, unknown>;
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"ssn":"1"},"note":"hi"}');
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`.padEnd(200, 'x'), i]));
    const line = JSON.stringify(maskArguments(wide, new Set()));
    expect(line.length).toBeLessThan(5000);
  });
});

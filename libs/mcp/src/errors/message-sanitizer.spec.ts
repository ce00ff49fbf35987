import { BadRequestException } from '@nestjs/common';
import { toJsonRpcError, toolErrorText } from './error-mapper';
import { InvalidParamsError, McpError, ToolExecutionError } from './mcp.error';
import { MAX_ERROR_TEXT, sanitizeErrorData, sanitizeErrorText } from './message-sanitizer';

/** Anything a client must never get in an error text: C0/C1 controls, DEL, bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const ALL_CONTROLS =
  Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('') +
  Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)).join('');
const BIDI = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';

describe('sanitizeErrorText', () => {
  it('keeps ordinary text, accents, emoji and right-to-left scripts as they are', () => {
    for (const t of ['No ticket HD-7', 'Ticket « café » 🎫 déjà vu', 'שלום עולם', 'e\u0301', ''])
      expect(sanitizeErrorText(t)).toBe(t);
  });

  it('turns line breaks and tabs into spaces', () => {
    expect(sanitizeErrorText('a\nb\r\nc\td\u2028e\u2029f\u0085g\vh\fi')).toBe('a b  c d e f g h i');
  });

  it('replaces every other C0/C1 control and DEL with U+FFFD', () => {
    expect(sanitizeErrorText('x\u001b[31mred\u0007\u0000\u007f\u009b')).toBe('x\ufffd[31mred\ufffd\ufffd\ufffd\ufffd');
    expect(sanitizeErrorText(ALL_CONTROLS)).not.toMatch(UNSAFE);
  });

  it('drops bidi embeddings, overrides and isolates', () => {
    expect(sanitizeErrorText(`HD-1${BIDI}gnp.exe`)).toBe('HD-1gnp.exe');
    expect(sanitizeErrorText('\u202eevil\u202c')).toBe('evil');
  });

  it('cuts long text to 500 characters ending in an ellipsis, never inside a surrogate pair', () => {
    const long = sanitizeErrorText('x'.repeat(10_000));
    expect(long).toHaveLength(MAX_ERROR_TEXT);
    expect(long.endsWith('x\u2026')).toBe(true);
    expect(sanitizeErrorText('y'.repeat(MAX_ERROR_TEXT))).toBe('y'.repeat(MAX_ERROR_TEXT));
    const emoji = sanitizeErrorText('a'.repeat(MAX_ERROR_TEXT - 2) + '😀'.repeat(10));
    expect(emoji).toBe(`${'a'.repeat(MAX_ERROR_TEXT - 2)}\u2026`);
    expect(Buffer.from(emoji, 'utf8').toString('utf8')).toBe(emoji); // no lone surrogate
  });

  it('is idempotent', () => {
    for (const t of [`a\n${BIDI}\u0000b`, 'z'.repeat(800), `${'q'.repeat(498)}😀😀`]) {
      const once = sanitizeErrorText(t);
      expect(sanitizeErrorText(once)).toBe(once);
    }
  });
});

describe('sanitizeErrorData', () => {
  it('sanitises strings and keys at any level, keeps other values', () => {
    expect(
      sanitizeErrorData({
        field: 'ticket\u001bId',
        reason: 'required',
        retryAfter: 3,
        ok: true,
        none: null,
        list: ['a\nb', 1, { 'k\u202e': '\u2066v' }],
      }),
    ).toEqual({
      field: 'ticket\ufffdId',
      reason: 'required',
      retryAfter: 3,
      ok: true,
      none: null,
      list: ['a b', 1, { k: 'v' }],
    });
  });

  it('sanitises what toJSON gives, keeps a __proto__ key an own key, and cuts off deep or circular data', () => {
    expect(sanitizeErrorData({ at: { toJSON: () => 'x\u0000y' } })).toEqual({ at: 'x\ufffdy' });
    const proto = sanitizeErrorData(JSON.parse('{"__proto__":{"polluted":"\\u0007"}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual({ polluted: '\ufffd' });
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    expect(() => JSON.stringify(sanitizeErrorData(circular))).not.toThrow();
  });
});

describe('the error mapper sanitises what it passes through', () => {
  const hostile = `HD-1\u001b[2J\r\nINFO forged log line\u202egnp.exe${'!'.repeat(2000)}`;

  it('in McpError messages and data', () => {
    const e = toJsonRpcError(new InvalidParamsError(`No ticket ${hostile}`, { field: hostile, reason: 'x' }), 'test');
    expect(e.message).not.toMatch(UNSAFE);
    expect(e.message.startsWith('No ticket HD-1\ufffd[2J  INFO forged log linegnp.exe!')).toBe(true);
    expect(e.message).toHaveLength(MAX_ERROR_TEXT);
    expect(JSON.stringify(e.data)).not.toMatch(/\\u00|\\r|\\n/);
    expect((e.data as { field: string }).field).not.toMatch(UNSAFE);
    const plain = toJsonRpcError(new McpError(-32000, 'a\u0000b'), 'test');
    expect(plain).toEqual({ code: -32000, message: 'a\ufffdb' });
  });

  it('in Nest 400 messages and isError texts', () => {
    expect(toJsonRpcError(new BadRequestException(hostile), 'test').message).not.toMatch(UNSAFE);
    expect(toJsonRpcError(new BadRequestException(['a\nb', 'c\u202ed']), 'test').message).toBe('a b; cd');
    expect(toolErrorText(new ToolExecutionError(`No ticket ${hostile}`))).not.toMatch(UNSAFE);
    expect(toolErrorText(new BadRequestException('bad\u0007'))).toBe('bad\ufffd');
  });
});

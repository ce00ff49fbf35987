import { checkParamHeaders } from './param-headers';
import { HeaderParam } from '../../registry/header-params';
import { ErrorCode } from '../../wire/json-rpc';

const count: HeaderParam[] = [{ name: 'Count', path: ['count'], type: 'integer' }];

const codeOf = (fn: () => void): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code: number }).code;
  }
};

describe('checkParamHeaders', () => {
  it('accepts an integer header in canonical decimal form', () => {
    expect(codeOf(() => checkParamHeaders(count, { count: 3 }, { count: '3' }))).toBeUndefined();
    expect(codeOf(() => checkParamHeaders(count, { count: -12 }, { count: '-12' }))).toBeUndefined();
    expect(codeOf(() => checkParamHeaders(count, { count: 0 }, { count: '0' }))).toBeUndefined();
  });

  // Surrounding spaces are optional whitespace in HTTP: every parser strips them, so they are not refused.
  it.each(['0x3', '3e0', '+3', '03', '3.0', '0b11', '-0x3'])(
    'refuses the non-canonical form %p of an integer with -32020',
    (raw) => {
      expect(codeOf(() => checkParamHeaders(count, { count: 3 }, { count: raw }))).toBe(ErrorCode.HeaderMismatch);
    },
  );

  it('refuses 1e3 for 1000 (a gateway using parseInt would read 1)', () => {
    expect(codeOf(() => checkParamHeaders(count, { count: 1000 }, { count: '1e3' }))).toBe(ErrorCode.HeaderMismatch);
  });
});

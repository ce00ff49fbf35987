import { parseArgs } from './compliance-args';
import { summarize } from './compliance-report';
import { ItemResult } from './compliance.types';
import { redact } from './http-probe';

describe('compliance arguments and report', () => {
  it('reads the flags, and says what is wrong with bad ones (never throws)', () => {
    expect(parseArgs(['--url', 'http://127.0.0.1:3000/mcp', '--token', 't', '--standard', '2.0'])).toMatchObject({
      token: 't',
      standards: ['2.0'],
      format: 'md',
    });
    expect(parseArgs([])).toMatch(/name an app under apps\/, or give --url/);
    expect(parseArgs(['orders', '--format', 'json'])).toEqual({
      app: 'orders',
      format: 'json',
      skip: [],
      deadlineSec: 300,
    });
    expect(parseArgs(['orders', '--deadline', '45'])).toMatchObject({ deadlineSec: 45 });
    for (const bad of ['0', '-1', '1.5', 'soon', '86401'])
      expect(parseArgs(['orders', '--deadline', bad])).toMatch(
        /--deadline must be a whole number of seconds from 1 to 86400/,
      );
    expect(parseArgs(['orders', '--skip', 'spec.conformance,auth.jwt'])).toMatchObject({
      skip: ['spec.conformance', 'auth.jwt'],
    });
    expect(parseArgs(['orders', '--skip', 'spec.nothing'])).toMatch(/--skip: no checklist item "spec.nothing"/);
    expect(parseArgs(['orders', '--url', 'http://x/mcp'])).toMatch(/not both/);
    expect(parseArgs(['orders', '--token', 't'])).toMatch(/--token, --issuer-key and --dir are for --url/);
    expect(parseArgs(['orders', 'billing'])).toMatch(/name one app, not 2/);
    expect(parseArgs(['--url', 'http://x/mcp', '--issuer-key', 'k.json'])).toMatchObject({ issuerKey: 'k.json' });
    expect(parseArgs(['--url', 'ftp://x/mcp'])).toMatch(/http: or https:/);
    expect(parseArgs(['--url', 'http://x/mcp', '--format', 'xml'])).toMatch(/--format must be md or json/);
    expect(parseArgs(['--url'])).toMatch(/--url needs a value/);
    expect(parseArgs(['--verbose'])).toMatch(/unknown argument "--verbose"/);
  });

  it('fails the review only on a MUST, and counts per checklist', () => {
    const item = (standard: '1.2' | '2.0', level: 'MUST' | 'SHOULD', status: ItemResult['status']): ItemResult => ({
      id: 'x',
      standard,
      section: 's',
      level,
      requires: 'r',
      status,
      evidence: [],
    });
    const should = summarize([
      item('1.2', 'SHOULD', 'fail'),
      item('1.2', 'MUST', 'pass'),
      item('2.0', 'MUST', 'manual'),
    ]);
    expect(should).toEqual({
      line: 'compliance: v1.2: 1 pass, 1 fail (0 MUST), 0 manual, 0 n/a; v2.0: 0 pass, 0 fail (0 MUST), 1 manual, 0 n/a',
      mustFailed: false,
    });
    const failed = summarize([item('2.0', 'MUST', 'fail'), { ...item('1.2', 'MUST', 'fail'), id: 'doc.readme' }]);
    expect(failed.mustFailed).toBe(true);
    // The line names the failing MUSTs: with the report in a file, the terminal says where to look.
    expect(failed.line).toMatch(/ — a MUST fails: x, doc\.readme$/);
  });

  it('masks tokens in evidence, and keeps a Bearer challenge readable', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
    expect(redact(`Authorization: Bearer ${jwt}`)).toBe('Authorization: Bearer [redacted]');
    expect(redact('Authorization: Bearer opaque-token_1/2+3==')).toBe('Authorization: Bearer [redacted]');
    expect(redact('WWW-Authenticate: Bearer realm="orders"')).toBe('WWW-Authenticate: Bearer realm="orders"');
    expect(redact(`{"token":"${jwt}"}`)).toBe('{"token":"[redacted jwt]"}');
  });
});

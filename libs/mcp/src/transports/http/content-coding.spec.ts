import type { IncomingMessage, ServerResponse } from 'node:http';
import { refusedContentCoding } from './content-coding';

/** A response that records what it was given (the status, headers and body of one writeHead and end). */
function recorder() {
  const r = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const res = {
    headersSent: false,
    getHeader: () => undefined,
    writeHead: (status: number, headers: Record<string, unknown>) => (Object.assign(r, { status, headers }), res),
    end: (body?: string) => void (r.body = body ?? ''),
  };
  return { res: res as unknown as ServerResponse, r };
}
const request = (headers: Record<string, string>, extra: object = {}) =>
  ({ headers, ...extra }) as unknown as IncomingMessage;

describe('refusedContentCoding', () => {
  it('lets a body without a coding, or in identity, through', () => {
    const cases: Record<string, string>[] = [
      {},
      { 'content-encoding': 'identity' },
      { 'content-encoding': 'Identity, identity' },
    ];
    for (const headers of cases) expect(refusedContentCoding(request(headers), recorder().res)).toBe(false);
  });

  it('refuses any other coding with 415, naming identity in the error and in Accept-Encoding', () => {
    const { res, r } = recorder();
    expect(refusedContentCoding(request({ 'content-encoding': 'gzip' }), res)).toBe(true);
    expect(r.status).toBe(415);
    expect(r.headers['Accept-Encoding']).toBe('identity');
    expect(JSON.parse(r.body).error).toMatchObject({ code: -32600, data: { accepted: ['identity'] } });
    expect(refusedContentCoding(request({ 'content-encoding': 'identity, br' }), recorder().res)).toBe(true);
  });

  it("takes a body an app's own Express body parser has read (and decoded) already", () => {
    expect(refusedContentCoding(request({ 'content-encoding': 'gzip' }, { _body: true }), recorder().res)).toBe(false);
  });
});

import { upstreamText } from './upstream-text';

describe('upstreamText: the human-readable reason of an upstream error body', () => {
  it('takes the message, error_description, detail or error field of a JSON body', () => {
    expect(upstreamText('{"message":"Issue HD-7 does not exist"}', 'application/json')).toBe(
      'Issue HD-7 does not exist',
    );
    expect(upstreamText('{"error":"invalid_grant","error_description":"expired"}', 'application/json')).toBe('expired');
    expect(upstreamText('{"detail":"bad priority"}', 'application/problem+json')).toBe('bad priority');
    expect(upstreamText('{"errorMessages":["a","b"]}', 'application/json')).toBe('a; b');
    expect(upstreamText('{"error":{"message":"nested"}}', 'application/json')).toBe('nested');
  });

  it('takes a plain-text body; nothing from HTML or a JSON body without a reason', () => {
    expect(upstreamText('Service is resting', 'text/plain; charset=utf-8')).toBe('Service is resting');
    expect(upstreamText('<html><body>Error</body></html>', 'text/html')).toBeUndefined();
    expect(upstreamText('{"id":3}', 'application/json')).toBeUndefined();
    expect(upstreamText('', 'text/plain')).toBeUndefined();
  });

  it('removes stack traces, file paths, tokens and URL queries', () => {
    const text = upstreamText(
      JSON.stringify({
        message:
          'failed at /srv/app/dist/main.js:10:3 with Bearer abc.def-ghi token eyJhbGciOi.eyJzdWIi.sig see https://x.example/a?token=s3cret\n    at handler (/srv/app/x.js:1:2)\n    at next',
      }),
      'application/json',
    )!;
    expect(text).not.toMatch(/\/srv\/app|abc\.def|eyJ|s3cret|at handler/);
    expect(text).toContain('[path]');
    expect(text).toContain('[redacted]');
  });

  it('caps the text at 500 characters and strips controls', () => {
    expect(upstreamText('x'.repeat(5000), 'text/plain')!.length).toBeLessThanOrEqual(500);
    expect(upstreamText('a\r\nb\u202ec', 'text/plain')).toBe('a  bc');
  });
});

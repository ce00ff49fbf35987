import { authorityRefusal } from './host-authority';
import { hostMatcher } from './origin-host.checks';

describe('authorityRefusal (the host a request names)', () => {
  const allowed = hostMatcher(['localhost', '127.0.0.1', '[::1]']);
  const judge = (host: string | undefined, target?: string) => authorityRefusal(host, target, allowed)?.status;

  it('lets a plain allowed host[:port] through, from Host or a matching absolute-form target', () => {
    for (const host of ['localhost', 'LOCALHOST:3000', '127.0.0.1:3000', '[::1]', '[::1]:3000'])
      expect({ host, status: judge(host) }).toEqual({ host, status: undefined });
    expect(judge('127.0.0.1:3000', '127.0.0.1:3000')).toBeUndefined();
    expect(judge(undefined, 'localhost:3000')).toBeUndefined();
    expect(judge(undefined)).toBeUndefined();
  });

  it('refuses with 400 what is not a plain host[:port], though its name alone is allowed', () => {
    for (const host of [
      '127.0.0.1:3000@evil.example.com',
      'user@127.0.0.1',
      '127.0.0.1:evil.example.com',
      '[::1]@evil.example.com',
      '127.0.0.1/x',
      '127.0.0.1:',
      '127.0.0.1:123456',
      '',
      'local host',
    ])
      expect({ host, status: judge(host) }).toEqual({ host, status: 400 });
    expect(authorityRefusal('localhost', 'u@localhost', allowed)).toEqual({
      status: 400,
      message: expect.stringMatching(/request target's authority/),
    });
  });

  it('refuses with 403 a host outside the allow-list, in Host or in the target; with 400 two different hosts', () => {
    expect(judge('evil.example.com')).toBe(403);
    expect(judge('127.0.0.1:3000', 'evil.example.com')).toBe(403);
    expect(judge('127.0.0.1:3000', 'localhost:3000')).toBe(400);
    expect(judge('127.0.0.1:3000', '127.0.0.1:3001')).toBe(400);
  });
});

import { tokenKey, usableUntil } from './token.cache';
import { audienceParameter, checkIssuerOptions } from './token-request.params';

describe('token cache helpers', () => {
  it('usableUntil takes a tenth of the lifetime off, at most a minute, and never caches without expires_in', () => {
    expect(usableUntil(0, 10)).toBe(9_000);
    expect(usableUntil(0, 3600)).toBe(3_540_000);
    expect(usableUntil(1_000, undefined)).toBe(1_000);
    expect(usableUntil(1_000, 0)).toBe(1_000);
    expect(usableUntil(1_000, -5)).toBe(1_000);
  });

  it('tokenKey names the grant and hashes the rest: no subject in clear, each part counts', () => {
    const key = tokenKey('token_exchange', 'sub:alice', 'https://jira', 'read');
    expect(key).toMatch(/^token_exchange:[\w-]{43}$/);
    expect(key).not.toContain('alice');
    expect(tokenKey('token_exchange', 'sub:alice', 'https://jira', undefined)).not.toBe(key);
    expect(tokenKey('token_exchange', 'sub:bob', 'https://jira', 'read')).not.toBe(key);
    expect(tokenKey('token_exchange', 'sub:alice', 'https://jira', 'read')).toBe(key);
  });

  it('an absolute URI audience is a resource (RFC 8707), a logical name an audience (RFC 8693)', () => {
    expect(audienceParameter('https://jira.example.com/')).toEqual({ resource: 'https://jira.example.com/' });
    expect(audienceParameter('urn:example:jira')).toEqual({ resource: 'urn:example:jira' });
    expect(audienceParameter('jira-api')).toEqual({ audience: 'jira-api' });
    expect(audienceParameter('https://jira.example.com/#frag')).toEqual({ audience: 'https://jira.example.com/#frag' });
    expect(audienceParameter(undefined)).toEqual({});
  });

  it('refuses issuer options that could never work, all problems at once, naming the downstream', () => {
    expect(() => checkIssuerOptions('jira', { issuer: 'not a url', clientId: '', clientSecret: '' })).toThrow(
      'downstream "jira" credentials: issuer is not a URL; clientId is empty; clientSecret is empty',
    );
    expect(() =>
      checkIssuerOptions('jira', { issuer: 'http://idp.example.com', clientId: 'a', clientSecret: 'b' }),
    ).toThrow(/https:\/\/ \(http:\/\/ only on loopback\)/);
    expect(() =>
      checkIssuerOptions('jira', { issuer: 'http://127.0.0.1:8080', clientId: 'a', clientSecret: 'b' }),
    ).not.toThrow();
  });
});

import { redact } from './redact';

describe('redact', () => {
  it('cuts user info up to the last @ and the query string of every URL', () => {
    expect(redact('GET https://u:p@ss@issuer.example/jwks?key=abc failed')).toBe(
      'GET https://***@issuer.example/jwks failed',
    );
    expect(redact('connect to redis://:secret@10.0.0.1:6379 refused')).toBe(
      'connect to redis://***@10.0.0.1:6379 refused',
    );
  });
});

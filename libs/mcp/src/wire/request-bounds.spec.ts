import { MAX_TOKEN_CHARS, progressTokenProblem } from './request-bounds';

describe('progressTokenProblem', () => {
  it('accepts no _meta, no token, a short string and a finite number', () => {
    expect(progressTokenProblem(undefined)).toBeUndefined();
    expect(progressTokenProblem({ _meta: {} })).toBeUndefined();
    expect(progressTokenProblem({ _meta: { progressToken: 'x'.repeat(MAX_TOKEN_CHARS) } })).toBeUndefined();
    expect(progressTokenProblem({ _meta: { progressToken: 7 } })).toBeUndefined();
  });

  it('refuses a token longer than the bound, and one that is neither a string nor a finite number', () => {
    expect(progressTokenProblem({ _meta: { progressToken: 'x'.repeat(MAX_TOKEN_CHARS + 1) } })).toBe(
      'progress_token_too_long',
    );
    expect(progressTokenProblem({ _meta: { progressToken: { a: 1 } } })).toBe('progress_token_invalid');
    expect(progressTokenProblem({ _meta: { progressToken: null } })).toBe('progress_token_invalid');
  });
});

import { mutationProblems } from './mutation-rules';

const input = { type: 'object', properties: { id: { type: 'string' }, reason: { type: 'string' } } };

describe('mutationProblems', () => {
  it('reports every missing field at once, each with a fix', () => {
    const problems = mutationProblems('close_ticket', undefined, input);
    expect(problems).toHaveLength(5);
    expect(problems.map((p) => /needs mutation\.(\w+)/.exec(p)![1])).toEqual([
      'risk',
      'sideEffects',
      'idempotency',
      'retry',
      'approval',
    ]);
    for (const problem of problems) expect(problem).toMatch(/: .*(e\.g\.|risk: |idempotency: )/);
  });

  it('needs only risk and side effects when nothing outside the call changes (external: false)', () => {
    expect(mutationProblems('t', { risk: 'low', sideEffects: 'Updates a cache.', external: false }, input)).toEqual([]);
  });

  it('refuses an unknown risk', () => {
    expect(mutationProblems('t', { risk: 'extreme' as never, sideEffects: 'x', external: false }, input)).toEqual([
      expect.stringContaining("risk: 'low' | 'medium' | 'high'"),
    ]);
  });

  it('idempotency.key must name an argument of the tool, and says which exist', () => {
    const m = {
      risk: 'high' as const,
      sideEffects: 'x',
      idempotency: { key: 'no_such_arg' },
      retry: 'safe',
      approval: 'user',
    };
    expect(mutationProblems('t', m, input)).toEqual([
      'tool "t": mutation.idempotency.key "no_such_arg" is not an argument of the tool; name one of its arguments ' +
        "(id, reason) or use idempotency: { none: '...' }",
    ]);
    expect(mutationProblems('t', { ...m, idempotency: { key: 'id' } }, input)).toEqual([]);
    expect(mutationProblems('t', m, { type: 'object', properties: {} })[0]).toContain('it takes no arguments');
  });

  it('idempotency.replay is true or false, and needs its key in every call (a required argument)', () => {
    const m = { risk: 'low' as const, sideEffects: 'x', retry: 'safe', approval: 'no' };
    const required = { ...input, required: ['id'] };
    expect(mutationProblems('t', { ...m, idempotency: { key: 'id', replay: true } }, required)).toEqual([]);
    expect(mutationProblems('t', { ...m, idempotency: { key: 'id', replay: true } }, input)).toEqual([
      'tool "t": mutation.idempotency.replay needs the key "id" in every call: make it a required argument ' +
        '(no @IsOptional() on it in the input DTO)',
    ]);
    expect(mutationProblems('t', { ...m, idempotency: { key: 'id', replay: 'yes' as never } }, required)).toEqual([
      'tool "t": mutation.idempotency.replay must be true or false (got "yes")',
    ]);
  });

  it('idempotency.none must give a reason', () => {
    const m = { risk: 'low' as const, sideEffects: 'x', idempotency: { none: ' ' }, retry: 'never', approval: 'no' };
    expect(mutationProblems('t', m, input)).toEqual([
      "tool \"t\": mutation.idempotency needs { key: '<argument>' } or { none: '<why there is none>' }",
    ]);
  });
});

import {
  CallScope,
  callScopeEnabled,
  currentCallScope,
  enableCallScope,
  noteDownstream,
  runInCallScope,
} from './call-scope';

describe('the call scope', () => {
  const scope: CallScope = {
    signal: new AbortController().signal,
    deadline: undefined,
    principal: undefined,
    requestId: 'r-1',
    target: 't',
  };

  it('costs nothing until something that reads it is built: the scope is not even made', () => {
    const make = jest.fn(() => scope);
    expect(callScopeEnabled()).toBe(false);
    expect(runInCallScope(make, () => currentCallScope())).toBeUndefined();
    expect(make).not.toHaveBeenCalled();
  });

  it('is the current call inside the method once enabled, and gone outside it', () => {
    enableCallScope();
    expect(
      runInCallScope(
        () => scope,
        () => currentCallScope(),
      ),
    ).toBe(scope);
    expect(currentCallScope()).toBeUndefined();
  });

  it('collects the downstreams a call used, each once in first-use order; nothing outside a call', () => {
    enableCallScope();
    expect(callScopeEnabled()).toBe(true);
    noteDownstream('jira');
    const downstreams: string[] = [];
    runInCallScope(
      () => ({ ...scope, downstreams }),
      () => ['jira', 'gitlab', 'jira', 'gitlab'].forEach(noteDownstream),
    );
    expect(downstreams).toEqual(['jira', 'gitlab']);
    // A scope without the list (a task's run) collects nothing and does not fail.
    expect(() =>
      runInCallScope(
        () => scope,
        () => noteDownstream('jira'),
      ),
    ).not.toThrow();
    expect(scope.downstreams).toBeUndefined();
  });
});

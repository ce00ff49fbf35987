import { CallScope, currentCallScope, enableCallScope, runInCallScope } from './call-scope';

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
});

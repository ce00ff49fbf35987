import { classifyMessage, serialiseRawResult } from './json-rpc';

describe('classifyMessage', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'request'],
    [{ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} }, 'request'],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, 'notification'],
    [{ jsonrpc: '2.0', id: 'srv-1', result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: 3, error: { code: -1, message: 'x' } }, 'response'],
  ])('accepts %j as a %s', (value, kind) => {
    expect(classifyMessage(value).kind).toBe(kind);
  });

  it.each([
    [null],
    [42],
    ['{"jsonrpc":"2.0"}'],
    [{ id: 1, method: 'ping' }],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }],
    [{ jsonrpc: '2.0', id: {}, method: 'ping' }],
    [{ jsonrpc: '2.0', id: 1, method: 7 }],
    [{ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }],
    [{ jsonrpc: '2.0', id: 1 }],
    [{ jsonrpc: '2.0', id: ['srv-1'], error: { code: 1, message: 'x' } }],
    [{ jsonrpc: '2.0', id: 'srv-1', error: { code: 1.5, message: 'x' } }],
    [{ jsonrpc: '2.0', id: 'srv-1', error: { code: 1, message: {} } }],
    [{ jsonrpc: '2.0', id: 'srv-1', result: {}, error: { code: 1, message: 'x' } }],
  ])('refuses %j', (value) => {
    expect(classifyMessage(value).kind).toBe('invalid');
  });

  it('keeps a valid id of an invalid request so the error can echo it', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 9, method: 'x', params: 'no' })).toEqual({
      kind: 'invalid',
      id: 9,
      reason: 'params must be an object',
    });
  });

  it('serialises a pre-serialised result without re-parsing it', () => {
    expect(JSON.parse(serialiseRawResult('a"b', '{"tools":[]}'))).toEqual({
      jsonrpc: '2.0',
      id: 'a"b',
      result: { tools: [] },
    });
  });
});

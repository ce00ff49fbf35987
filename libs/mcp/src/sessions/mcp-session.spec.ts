import { McpPeer } from '../context/mcp-peer';
import { McpSession } from './mcp-session';

describe('McpSession', () => {
  it('is a peer that initialized, known by its id over HTTP only', () => {
    const http = new McpSession(McpSession.newId(), 'http');
    expect(http).toBeInstanceOf(McpPeer);
    expect(http.initialized).toBe(false);
    http.negotiate('2025-11-25', { name: 'c', version: '1' }, {});
    expect(http.initialized).toBe(true);
    expect(http.era.modern).toBe(false);
    expect(http.sessionId).toBe(http.id);
    expect(new McpSession('stdio', 'stdio').sessionId).toBeUndefined();
  });

  it('wants log messages from info up until told otherwise, and saves the level it is told', () => {
    const session = new McpSession('s1', 'http');
    const changed = jest.fn();
    session.onChange = changed;
    expect(session.wantsLog('info')).toBe(true);
    expect(session.wantsLog('debug')).toBe(false);
    session.setLogLevel('debug');
    expect(session.wantsLog('debug')).toBe(true);
    expect(changed).toHaveBeenCalledTimes(1);
  });
});

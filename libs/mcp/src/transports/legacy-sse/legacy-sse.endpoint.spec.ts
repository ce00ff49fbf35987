import { messagesEndpoint } from './legacy-sse.endpoint';

describe('messagesEndpoint', () => {
  it('is /messages with the session id when /sse is served at the root', () => {
    expect(messagesEndpoint('/sse', 'abc')).toBe('/messages?sessionId=abc');
    expect(messagesEndpoint('/sse?x=1', 'abc')).toBe('/messages?sessionId=abc');
    expect(messagesEndpoint('/sse/', 'abc')).toBe('/messages?sessionId=abc');
  });

  it('keeps the prefix /sse was served under (a Nest global prefix)', () => {
    expect(messagesEndpoint('/api/v1/sse', 'abc')).toBe('/api/v1/messages?sessionId=abc');
    expect(messagesEndpoint('/api/SSE', 'abc')).toBe('/api/messages?sessionId=abc');
  });

  it('never produces a protocol-relative URI', () => {
    expect(messagesEndpoint('//evil.example.com/sse', 'abc')).toBe('/evil.example.com/messages?sessionId=abc');
    expect(messagesEndpoint('/unexpected', 'abc')).toBe('/messages?sessionId=abc');
  });

  it('encodes the session id', () => {
    expect(messagesEndpoint('/sse', 'a b&c')).toBe('/messages?sessionId=a%20b%26c');
  });
});

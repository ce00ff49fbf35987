import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { literalPathOf, nodeRequest, nodeResponse, pathOf, requestTarget, targetAuthority } from './node-http';

const request = (url: string) => Object.assign(new IncomingMessage(new Socket()), { url });

describe('the HTTP edge: Node’s objects under either adapter', () => {
  it('passes Express’s request and response through (they are Node’s own)', () => {
    const req = request('/mcp');
    const res = new ServerResponse(req);
    expect(nodeRequest(req)).toBe(req);
    expect(nodeResponse(res)).toBe(res);
  });

  it('unwraps Fastify’s request and reply, hijacking the reply once so Fastify leaves the answer alone', () => {
    const raw = request('/mcp');
    const rawRes = new ServerResponse(raw);
    const reply: { raw: ServerResponse; sent: boolean; hijack: jest.Mock } = {
      raw: rawRes,
      sent: false,
      hijack: jest.fn(),
    };
    reply.hijack.mockImplementation(() => (reply.sent = true));
    expect(nodeRequest({ raw })).toBe(raw);
    expect(nodeResponse(reply)).toBe(rawRes);
    expect(nodeResponse(reply)).toBe(rawRes);
    expect(reply.hijack).toHaveBeenCalledTimes(1);
  });

  it('reads the target the client sent and its path', () => {
    expect(requestTarget(Object.assign(request('/x'), { originalUrl: '/mcp/x?a=1' }))).toBe('/mcp/x?a=1');
    expect(requestTarget(request('/mcp?b=2'))).toBe('/mcp?b=2');
    expect(pathOf('/mcp?b=2')).toBe('/mcp');
    expect(pathOf(undefined)).toBe('/');
  });

  it('takes the path out of a target as the routers do: absolute form, fragments, percent-escapes', () => {
    expect(pathOf('/mcp#x')).toBe('/mcp');
    expect(pathOf('http://localhost:3000/mcp?x')).toBe('/mcp');
    expect(pathOf('ftp://x/mcp')).toBe('/mcp');
    expect(pathOf('http://x?y/mcp')).toBe('/');
    expect(pathOf('/%6Dcp')).toBe('/mcp');
    expect(pathOf('/mcp%zz')).toBe('/mcp%zz');
    expect(pathOf('*')).toBe('/*');
  });

  it('keeps the escapes in the literal path (what Express matches a static route against)', () => {
    expect(literalPathOf('/%6Dcp?x')).toBe('/%6Dcp');
    expect(literalPathOf('http://localhost:3000/m%63p#y')).toBe('/m%63p');
    expect(literalPathOf('*')).toBe('/*');
  });

  it('reads the authority of a target in absolute form only, as sent', () => {
    expect(targetAuthority('http://evil.example.com/mcp')).toBe('evil.example.com');
    expect(targetAuthority('http://user@127.0.0.1:3000?x')).toBe('user@127.0.0.1:3000');
    expect(targetAuthority('HTTP://[::1]:3000/mcp')).toBe('[::1]:3000');
    expect(targetAuthority('/mcp')).toBeUndefined();
    expect(targetAuthority('*')).toBeUndefined();
    expect(targetAuthority(undefined)).toBeUndefined();
  });
});

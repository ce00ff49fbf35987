import { resolveHttpAdapter } from './http-adapter';

describe('resolveHttpAdapter', () => {
  it('is Express unless the option or MCP_HTTP_ADAPTER says Fastify; the option wins', () => {
    expect(resolveHttpAdapter(undefined, {})).toBe('express');
    expect(resolveHttpAdapter(undefined, { MCP_HTTP_ADAPTER: ' Fastify ' })).toBe('fastify');
    expect(resolveHttpAdapter('express', { MCP_HTTP_ADAPTER: 'fastify' })).toBe('express');
    expect(resolveHttpAdapter(undefined, { MCP_HTTP_ADAPTER: '' })).toBe('express');
  });

  it('stops the boot on anything else, naming the values there are', () => {
    expect(() => resolveHttpAdapter(undefined, { MCP_HTTP_ADAPTER: 'koa' })).toThrow(
      'MCP_HTTP_ADAPTER must be express or fastify (got "koa")',
    );
  });
});

import { logFindings } from './log-findings';

describe('logFindings', () => {
  const entry = (o: Record<string, unknown>) => JSON.stringify({ level: 'info', time: '2026-11-27T00:00:00Z', ...o });

  it('takes JSON entries as structured, leaving out the start lines written for a person', () => {
    const text = [
      'orders MCP server listening on http://127.0.0.1:3000/mcp',
      'orders metrics on http://127.0.0.1:9464/metrics',
      entry({ msg: 'tool call', tool: 'get_order' }),
      '',
    ].join('\n');
    expect(logFindings(text)).toEqual({ lines: [entry({ msg: 'tool call', tool: 'get_order' })], json: 1 });
  });

  it('finds a line that is not JSON, and a line holding a JWT or a bearer credential', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZw';
    const found = logFindings(
      [entry({ msg: 'ok' }), 'Error: boom', entry({ msg: 'call', headers: { authorization: `Bearer ${jwt}` } })].join(
        '\n',
      ),
    );
    expect(found).toMatchObject({ json: 2, plain: 'Error: boom' });
    expect(found.leak).toContain('authorization');
    expect(logFindings(entry({ msg: `token=${jwt}` })).leak).toBeDefined();
    expect(logFindings(entry({ msg: 'Bearer opaque-0123456789abcdef' })).leak).toBeDefined();
    expect(logFindings(entry({ challenge: 'Bearer realm="orders"' })).leak).toBeUndefined();
  });
});

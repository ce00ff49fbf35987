import { RawStdioServer } from '../support/raw-stdio';
import { jsonLines, waitForLine } from '../support/log-lines';

/** Over stdio, logs go to stderr (stdout is the protocol) and each JSON-RPC call gets its own request id. */
describe('structured logs over stdio', () => {
  let server: RawStdioServer;

  beforeAll(async () => {
    server = new RawStdioServer();
    await server.initialize();
    server.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_tickets', arguments: { query: 'printer' } },
    });
    server.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search_tickets', arguments: { query: 'vpn' } },
    });
    await server.response(2);
    await server.response(3);
  }, 60_000);
  afterAll(async () => {
    server.endInput();
    await server.exited;
  });

  it('writes only JSON-RPC messages to stdout', () => {
    for (const m of server.messages()) expect((m as { jsonrpc?: string }).jsonrpc).toBe('2.0');
  });

  it('writes one tool-call entry per call to stderr, each with its own generated request id', async () => {
    await waitForLine(
      () => server.stderr,
      (l) => l.msg === 'tool call' && l.jsonrpcId === 3,
    );
    const calls = jsonLines(server.stderr).filter((l) => l.msg === 'tool call');
    expect(calls).toHaveLength(2);
    for (const c of calls)
      expect(c).toMatchObject({
        tool: 'search_tickets',
        status: 'ok',
        transport: 'stdio',
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    expect(calls[0].requestId).not.toBe(calls[1].requestId);
  });
});

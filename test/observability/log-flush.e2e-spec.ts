import { mcpPost, openMcpSession } from '../support/mcp-post';
import { startDeskHttp } from '../support/server-process';
import { jsonLines } from '../support/log-lines';
import { waitFor } from '../support/wait';

const CALLS = 300;
const AT_ONCE = 10;

/**
 * The application log is buffered (written in blocks, asynchronously): a normal shutdown must still write every
 * line. The built desk serves CALLS tool calls, is sent SIGTERM right after the last answer, and its stdout must
 * then hold one entry per call and the shutdown's own lines.
 */
describe('buffered logs on shutdown', () => {
  it('writes every call entry before the process exits on SIGTERM', async () => {
    const server = await startDeskHttp();
    let code: number | null;
    try {
      const sessionId = await openMcpSession(server.url, server.token);
      for (let i = 0; i < CALLS; i += AT_ONCE) {
        const batch = Array.from({ length: AT_ONCE }, (_, k) =>
          mcpPost(
            server.url,
            {
              jsonrpc: '2.0',
              id: i + k,
              method: 'tools/call',
              params: { name: 'search_tickets', arguments: { query: 'vpn' } },
            },
            server.token,
            { 'mcp-session-id': sessionId, 'x-request-id': `flush-${String(i + k).padStart(4, '0')}` },
          ),
        );
        for (const answer of await Promise.all(batch)) expect(answer.status).toBe(200);
      }
    } finally {
      code = await server.stop();
    }
    expect(code).toBe(0);
    const lines = jsonLines(server.stdout!());
    const ids = new Set(
      lines.filter((l) => l.msg === 'tool call' && String(l.requestId).startsWith('flush-')).map((l) => l.requestId),
    );
    expect(ids.size).toBe(CALLS);
    // Lines written during the shutdown itself (after the last request) are there too.
    expect(lines.some((l) => l.context === 'McpShutdown')).toBe(true);
  });

  it('keeps serving when the reader of its stdout goes away (EPIPE), says so once on stderr, and still exits 0', async () => {
    const server = await startDeskHttp();
    let code: number | null;
    try {
      const sessionId = await openMcpSession(server.url, server.token);
      server.process.stdout!.destroy(); // the log collector is gone: the server's writes to stdout now fail
      for (let i = 0; i < 40; i++) {
        const answer = await mcpPost(
          server.url,
          {
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: 'search_tickets', arguments: { query: 'x' } },
          },
          server.token,
          { 'mcp-session-id': sessionId },
        );
        expect(answer.status).toBe(200);
      }
      await waitFor(() => /log lines lost on descriptor 1: EPIPE/.test(server.stderr()), 5_000, 'the EPIPE notice');
    } finally {
      code = await server.stop();
    }
    expect(code).toBe(0);
    expect(server.stderr().match(/log lines lost/g)).toHaveLength(1);
  });
});

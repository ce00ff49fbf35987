import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RawStdioServer } from './support/raw-stdio';
import { authorize, call, openSession } from './support/raw-mcp-http';
import { rpcError } from './support/rpc-error';
import { RunningServer, bearer, startDeskHttp } from './support/server-process';

/*
 * The desk's triage_ticket prompt throws `No ticket ${ticketId}`: the caller's own input, echoed. The platform
 * sanitises every error text it passes through, so control characters (terminal escapes, CR/LF that forge log
 * lines, NUL) and bidi overrides never reach a client, and the text stays short.
 */

/** What must never reach a client in an error text: C0/C1 controls, DEL, line separators, bidi overrides. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same in JSON text: escaped controls, or the raw characters JSON leaves unescaped. */
const UNSAFE_ON_THE_WIRE = /\\u00[01][0-9a-f]|\\[bfnrt]|[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/i;
const HOSTILE = [
  'HD-1\u001b[2J\u001b]0;pwned\u0007',
  '\r\n2026-01-01 INFO admin logged in\u0000',
  '\u009b31m\u007f\u0085',
  '\u202egnp.exe\u202c \u2066isolated\u2069 \u202a\u202b\u202d',
  '\u2028\u2029\t\v\f',
  'x'.repeat(5_000),
].join('');

describe('error texts echoing caller input are sanitised by the platform', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startDeskHttp();
    authorize(server);
  });
  afterAll(() => server.stop());

  it('over HTTP with the official SDK: a prompt error carries no controls or bidi marks, and is capped', async () => {
    const client = new Client({ name: 'sanitising-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer(server) } }),
    );
    try {
      const e = await rpcError(client.getPrompt({ name: 'triage_ticket', arguments: { ticketId: HOSTILE } }));
      expect(e.code).toBe(-32602);
      expect(e.message).not.toMatch(UNSAFE);
      expect(e.message.length).toBeLessThanOrEqual(500);
      // Still useful: the visible parts of the input stay, controls show as U+FFFD, line breaks as spaces.
      expect(e.message).toMatch(
        /^No ticket HD-1\ufffd\[2J\ufffd\]0;pwned\ufffd {2}2026-01-01 INFO admin logged in\ufffd/,
      );
      expect(e.message).toContain('gnp.exe isolated');
      expect(e.message.endsWith('\u2026')).toBe(true);
      // The session is fine afterwards.
      expect(await client.ping()).toEqual({});
    } finally {
      await client.close();
    }
  });

  it('on the wire: neither the message nor error.data (an argument name is caller input too) carries them', async () => {
    const sid = await openSession(server.url, '2025-11-25');
    const answers = [
      await call(
        server.url,
        sid,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'prompts/get',
          params: { name: 'triage_ticket', arguments: { ticketId: HOSTILE } },
        },
        '2025-11-25',
      ),
      await call(
        server.url,
        sid,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'prompts/get',
          params: { name: 'triage_ticket', arguments: { ticketId: 'HD-1', [`tone\u001b\r\n\u202e`]: 7 } },
        },
        '2025-11-25',
      ),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200); // the default spec profile: the error is in a 200 answer
      expect(a.json.error.code).toBe(-32602);
      expect(a.text).not.toMatch(UNSAFE_ON_THE_WIRE);
      expect(a.text).not.toMatch(UNSAFE);
    }
    expect(answers[1].json.error).toMatchObject({
      message: 'Invalid params: argument tone\ufffd   must be a string',
      data: { field: 'tone\ufffd  ', reason: 'type' },
    });
  });

  it("in a tool result: the invalid-arguments text names the caller's keys without their controls", async () => {
    const sid = await openSession(server.url, '2025-11-25');
    const a = await call(
      server.url,
      sid,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_ticket', arguments: { id: 'HD-1', [`x\u001b[31m\r\n\u202e`]: 1 } },
      },
      '2025-11-25',
    );
    expect(a.status).toBe(200);
    expect(a.json.result.isError).toBe(true);
    const text = a.json.result.content[0].text as string;
    expect(text).toMatch(/^Invalid arguments for tool get_ticket: /);
    expect(text).toContain('x\ufffd[31m');
    expect(text).not.toMatch(UNSAFE);
    expect(a.text).not.toMatch(UNSAFE_ON_THE_WIRE);
  });

  it('over stdio too: the line written to stdout is free of them', async () => {
    const srv = new RawStdioServer();
    try {
      await srv.initialize('init');
      srv.send({
        jsonrpc: '2.0',
        id: 'p',
        method: 'prompts/get',
        params: { name: 'triage_ticket', arguments: { ticketId: HOSTILE } },
      });
      const answer = (await srv.response('p')) as { error?: { code: number; message: string } };
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).not.toMatch(UNSAFE);
      const line = srv.lines().find((l) => l.includes('"id":"p"'))!;
      expect(line).not.toMatch(UNSAFE_ON_THE_WIRE);
    } finally {
      srv.endInput();
      await Promise.race([srv.exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
      srv.kill();
    }
  });
});

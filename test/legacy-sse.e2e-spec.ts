import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { bearer, DESK_TOOLS, RunningServer, startLegacySseDesk } from './support/server-process';

/** The legacy HTTP+SSE transport of 2024-11-05 with the 1.x SDK's client (by hand: legacy-sse-wire). */
describe('legacy HTTP+SSE transport (2024-11-05)', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => void ({ server, base } = await startLegacySseDesk()));
  afterAll(() => server.stop());

  describe('with the 1.x SDK SSEClientTransport', () => {
    let client: Client;
    let transport: SSEClientTransport;

    beforeEach(async () => {
      client = new Client({ name: 'legacy-sse-e2e', version: '1.0.0' }, { capabilities: { sampling: {} } });
      // requestInit headers go on the POSTs and on the GET /sse that opens the EventSource.
      transport = new SSEClientTransport(new URL('/sse', base), { requestInit: { headers: bearer(server) } });
      await client.connect(transport);
    });
    afterEach(async () => {
      await client.close();
    });

    it('initializes: the server answers with its info and capabilities on the stream', () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'desk', version: '0.1.0' });
      expect(client.getServerCapabilities()).toMatchObject({
        tools: {},
        prompts: {},
        resources: { subscribe: true },
        completions: {},
        logging: {},
      });
      expect(client.getInstructions()).toContain('Desk tickets');
    });

    it('lists tools', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(DESK_TOOLS);
    });

    it('calls a tool and gets structured content', async () => {
      const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn', limit: 2 } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { tickets: { id: string }[]; count: number; truncated: boolean };
      expect(structured.count).toBe(2);
      expect(structured.truncated).toBe(true);
    });

    it('turns invalid arguments into isError', async () => {
      const result = await client.callTool({
        name: 'create_ticket',
        arguments: { title: 'tiny', priority: 'whenever' },
      });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0].text).toContain('priority: enum');
    });

    it('gets a prompt', async () => {
      const prompt = await client.getPrompt({ name: 'triage_ticket', arguments: { ticketId: 'HD-2' } });
      expect((prompt.messages[0].content as { text: string }).text).toContain('HD-2');
    });

    it('reads a templated resource', async () => {
      const ticket = await client.readResource({ uri: 'desk://tickets/HD-3' });
      expect(JSON.parse((ticket.contents[0] as { text: string }).text)).toMatchObject({ id: 'HD-3' });
    });

    it('streams progress of a long call on the SSE stream', async () => {
      // Counted as they arrive on the stream, not through `onprogress`: this client dispatches every event of one read
      // at once but hands notifications on a tick later, so progress read together with the answer (likely on a
      // loaded machine) is dropped by the client after the answer retired the call (a known race of the 1.x SDK).
      const onStream: number[] = [];
      const deliver = transport.onmessage!;
      transport.onmessage = (message) => {
        if ('method' in message && message.method === 'notifications/progress') {
          onStream.push((message.params as { progress: number }).progress);
        }
        deliver(message);
      };
      const delivered: number[] = [];
      const result = await client.callTool({ name: 'export_tickets', arguments: {} }, undefined, {
        onprogress: (p) => delivered.push(p.progress),
      });
      expect((result.content as { text: string }[])[0].text.split('\n')[0]).toBe('id,status,priority,category,title');
      // One report per batch of five of the 25 tickets, rising, all before the answer.
      expect(onStream).toEqual([5, 10, 15, 20, 25]);
      expect(onStream.slice(0, delivered.length)).toEqual(delivered);
    });

    it('round-trips sampling: the request arrives on the stream, the answer comes back by POST', async () => {
      client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
        role: 'assistant',
        content: {
          type: 'text',
          text: `Dear requester, about "${(req.params.messages[0].content as { text: string }).text.slice(0, 20)}"`,
        },
        model: 'test-model',
      }));
      const result = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-4' } });
      expect(result.isError).toBeFalsy();
      expect((result.content as { text: string }[])[0].text).toContain('Dear requester');
    });
  });
});

import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { RunningServer, bearer, startDeskHttp } from './support/server-process';
import { SDK1_STDIO, SDK2_STDIO, STDIO_SERVER, StdioSession, serverEnv } from './support/stdio-clients';
import { authorize, call, headerFor, openSession } from './support/raw-mcp-http';

const DESK = resolve(__dirname, 'fixtures/desk');
const source = (path: string) => readFileSync(resolve(DESK, path), 'utf8');
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** What both SDK generations' clients offer for these checks. */
type CatalogueClient = Pick<
  StdioSession['client'],
  'listPrompts' | 'listResources' | 'getPrompt' | 'readResource' | 'getServerVersion'
>;

const promptText = async (client: CatalogueClient, name: string) => {
  const { messages } = await client.getPrompt({ name });
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
  return (messages[0].content as { text: string }).text;
};
const resourceText = async (client: CatalogueClient, uri: string, mimeType: string) => {
  const { contents } = await client.readResource({ uri });
  expect(contents).toEqual([{ uri, mimeType, text: expect.any(String) }]);
  return contents[0].text as string;
};

/** The checks every transport and client must pass; returns the version the server reported. */
async function checkBuiltins(client: CatalogueClient): Promise<string> {
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual(['triage_ticket', 'agent_brief', 'agent_prompt']);
  expect(prompts.find((p) => p.name === 'agent_brief')!.arguments ?? []).toEqual([]);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining(['desk://agent/brief', 'desk://agent/prompt', 'project://version', 'doc://readme']),
  );
  // Under the reserved schemes: exactly the standard's four URIs, nothing invented.
  expect(
    resources
      .map((r) => r.uri)
      .filter((u) => /^(use|project|doc):/.test(u))
      .sort(),
  ).toEqual(['doc://readme', 'project://version', 'use://auth', 'use://http-headers']);

  const brief = await promptText(client, 'agent_brief');
  expect(brief).toBe(source('agent/brief.md'));
  expect(Buffer.byteLength(brief)).toBeLessThanOrEqual(2048);
  expect(await resourceText(client, 'desk://agent/brief', 'text/markdown')).toBe(brief);
  const prompt = await promptText(client, 'agent_prompt');
  expect(prompt).toBe(source('agent/prompt.md'));
  expect(await resourceText(client, 'desk://agent/prompt', 'text/markdown')).toBe(prompt);
  expect(await resourceText(client, 'doc://readme', 'text/markdown')).toBe(source('README.md'));

  const project = JSON.parse(await resourceText(client, 'project://version', 'application/json'));
  const serverInfo = client.getServerVersion()!;
  expect(project).toMatchObject({ name: 'desk', title: 'Desk', version: serverInfo.version });
  expect(serverInfo.version).toMatch(/^\d+\.\d+\.\d+/);
  return serverInfo.version;
}

describe('corporate built-ins of the built desk', () => {
  describe('over Streamable HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp();
      authorize(server);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('with @modelcontextprotocol/sdk 1.x: prompts equal their mirrors and the files; one version in initialize, project://version and /health', async () => {
      const client = new Client1({ name: 'corporate-e2e-sdk1', version: '1.0.0' });
      await client.connect(new Http1(new URL(server.url), { requestInit: { headers: bearer(server) } }));
      try {
        const version = await checkBuiltins(client as unknown as CatalogueClient);
        // §4: one version in /health, serverInfo.version and project://version.
        const health = await fetch(new URL('/health', server.url));
        expect(health.status).toBe(200);
        expect(((await health.json()) as { version?: string }).version).toBe(version);
      } finally {
        await client.close();
      }
    });

    it('with @modelcontextprotocol/client 2.x: the same', async () => {
      const client = new Client2({ name: 'corporate-e2e-sdk2', version: '2.0.0' });
      await client.connect(new Http2(new URL(server.url), { authProvider: { token: async () => server.token } }));
      try {
        await checkBuiltins(client as unknown as CatalogueClient);
      } finally {
        await client.close();
      }
    });

    it.each(VERSIONS)('lists them for a %s client too', async (version) => {
      const sessionId = await openSession(server.url, version);
      const prompts = await call(
        server.url,
        sessionId,
        { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
        headerFor(version),
      );
      expect(prompts.json.result.prompts.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['agent_brief', 'agent_prompt']),
      );
      const resources = await call(
        server.url,
        sessionId,
        { jsonrpc: '2.0', id: 3, method: 'resources/list' },
        headerFor(version),
      );
      expect(resources.json.result.resources.map((r: { uri: string }) => r.uri)).toEqual(
        expect.arrayContaining(['desk://agent/brief', 'desk://agent/prompt', 'project://version', 'doc://readme']),
      );
      const brief = await call(
        server.url,
        sessionId,
        { jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'agent_brief' } },
        headerFor(version),
      );
      expect(brief.json.result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: source('agent/brief.md') } },
      ]);
    });
  });

  describe.each([SDK1_STDIO, SDK2_STDIO])('over stdio with $label', (flavour) => {
    let session: StdioSession;
    beforeAll(async () => {
      session = await flavour.connect();
    });
    afterAll(async () => {
      await session?.close();
    });

    it('publishes the same built-ins, with the version of initialize', async () => {
      await checkBuiltins(session.client);
    });
  });

  it('finds its texts wherever it is started from (paths relative to the app, not the working directory)', async () => {
    const transport = new Stdio1({ ...STDIO_SERVER, cwd: tmpdir(), env: serverEnv(), stderr: 'pipe' });
    const client = new Client1({ name: 'corporate-e2e-cwd', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(await promptText(client as unknown as CatalogueClient, 'agent_prompt')).toBe(source('agent/prompt.md'));
      expect(await resourceText(client as unknown as CatalogueClient, 'doc://readme', 'text/markdown')).toBe(
        source('README.md'),
      );
    } finally {
      await client.close();
    }
  });
});

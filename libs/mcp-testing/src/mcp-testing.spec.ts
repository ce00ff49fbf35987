import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import {
  McpArgs,
  McpCallContext,
  McpCtx,
  McpField,
  McpModule,
  McpPrompt,
  McpResource,
  McpScopes,
  McpTool,
} from '@app/mcp';
import { McpTestServer, startMcpTestServer } from './index';

class EchoDto {
  @McpField({ description: 'Text to echo.' })
  @IsString()
  text!: string;
}

/** A small app that exercises what the kit offers: progress, logs, elicitation, sampling, roots, scopes. */
@Injectable()
class KitFixtureTools {
  @McpTool({ description: 'Echoes its text.', input: EchoDto, annotations: { readOnlyHint: true } })
  echo(@McpArgs() args: EchoDto) {
    return { text: args.text };
  }

  @McpTool({ description: 'Counts to three with progress and a log line.', annotations: { readOnlyHint: true } })
  async count(@McpCtx() ctx: McpCallContext) {
    for (let i = 1; i <= 3; i++) ctx.reportProgress(i, 3, `step ${i}`);
    ctx.log.info({ event: 'counted', to: 3 });
    await new Promise((r) => setTimeout(r, 120)); // let the coalesced progress burst flush
    return 'counted';
  }

  @McpTool({ description: 'Asks the user for a name.', annotations: { readOnlyHint: true } })
  async ask(@McpCtx() ctx: McpCallContext) {
    const answer = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return `hello ${(answer.content as { name: string }).name}`;
  }

  @McpTool({ description: 'Asks the client model.', annotations: { readOnlyHint: true } })
  async think(@McpCtx() ctx: McpCallContext) {
    const reply = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }],
      maxTokens: 10,
    });
    return `model said ${(reply.content as { text: string }).text}`;
  }

  @McpTool({ description: 'Lists the client roots.', annotations: { readOnlyHint: true } })
  async roots(@McpCtx() ctx: McpCallContext) {
    const { roots } = await ctx.listRoots();
    return roots.map((r) => r.uri).join(',');
  }

  @McpScopes('kit:admin')
  @McpTool({ description: 'Needs the kit:admin scope.', annotations: { readOnlyHint: true } })
  admin() {
    return 'admin ok';
  }

  @McpPrompt({ description: 'Greets someone.', arguments: [{ name: 'who', required: true }] })
  greet(@McpArgs('who') who: string) {
    return `Greet ${who}.`;
  }

  @McpResource({ uri: 'kit://info', name: 'info', mimeType: 'text/plain' })
  info() {
    return 'kit fixture';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'kit', servicePage: false })],
  providers: [KitFixtureTools],
})
class KitFixtureModule {}

describe('@app/mcp-testing', () => {
  let server: McpTestServer;

  beforeAll(async () => {
    server = await startMcpTestServer(KitFixtureModule);
  });
  afterAll(() => server?.close());

  it('boots the module on a loopback port behind the production auth guard', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const anonymous = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('connects an official SDK client with a token holding every declared scope', async () => {
    const client = await server.connect();
    expect(client.sdk.getServerVersion()).toMatchObject({ name: 'kit' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'count', 'admin']));
    expect(await client.callTool('admin')).toMatchObject({ content: [{ type: 'text', text: 'admin ok' }] });
    expect(await client.callTool('echo', { text: 'hi' })).toMatchObject({ structuredContent: { text: 'hi' } });
  });

  it('a token without the scope is refused by the scope guard', async () => {
    const client = await server.connect({ scope: '' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('admin');
    await expect(client.callTool('admin')).rejects.toThrow(/403|insufficient_scope|scope/i);
  });

  it('records progress and log notifications', async () => {
    const client = await server.connect();
    await client.callTool('count');
    expect(client.progress.map((p) => p.progress)).toEqual(expect.arrayContaining([3]));
    expect(client.progress.at(-1)).toMatchObject({ progress: 3, total: 3 });
    expect(client.logs).toContainEqual(expect.objectContaining({ level: 'info', data: { event: 'counted', to: 3 } }));
  });

  it('answers elicitation, sampling and roots with the given handlers', async () => {
    const client = await server.connect({
      elicitation: (params) => {
        expect(params).toMatchObject({ message: 'Your name?' });
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sampling: () => ({ role: 'assistant', model: 'test', content: { type: 'text', text: 'pong' } }),
      roots: [{ uri: 'file:///repo', name: 'repo' }],
    });
    expect(await client.callTool('ask')).toMatchObject({ content: [{ text: 'hello Ada' }] });
    expect(await client.callTool('think')).toMatchObject({ content: [{ text: 'model said pong' }] });
    expect(await client.callTool('roots')).toMatchObject({ content: [{ text: 'file:///repo' }] });
  });

  it('reads prompts and resources', async () => {
    const client = await server.connect();
    const prompt = await client.getPrompt('greet', { who: 'Bob' });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: 'Greet Bob.' });
    const resource = await client.readResource('kit://info');
    expect(resource.contents[0]).toMatchObject({ uri: 'kit://info', text: 'kit fixture' });
  });

  it('sends no token when asked (token: null) and restores the environment after boot', async () => {
    await expect(server.connect({ token: null })).rejects.toThrow(/401|Unauthorized/i);
    expect(process.env.MCP_JWKS_URI).toBeUndefined();
  });
});

describe('@app/mcp-testing with auth: none', () => {
  it('boots without an issuer; token() then explains why it cannot mint', async () => {
    const server = await startMcpTestServer(KitFixtureModule, { auth: 'none' });
    try {
      expect(server.issuer).toBeUndefined();
      const client = await server.connect();
      expect(await client.callTool('echo', { text: 'x' })).toMatchObject({ structuredContent: { text: 'x' } });
      expect(() => server.token()).toThrow('no issuer (auth: "none")');
    } finally {
      await server.close();
    }
  });
});

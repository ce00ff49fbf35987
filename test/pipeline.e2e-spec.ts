import { INestApplication } from '@nestjs/common';
import { rpcError } from './support/rpc-error';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CallLog, PipelineFixtureModule } from './fixtures/pipeline-fixture.module';
import { startInProcess } from './support/in-process-app';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/** Nest's own pipeline (guards, interceptors, pipes, filters, param decorators) on every tools/call. */
describe('MCP calls run through the Nest pipeline', () => {
  let app: INestApplication;
  let client: Client;
  let url: string;

  beforeAll(async () => {
    const started = await startInProcess(PipelineFixtureModule);
    app = started.app;
    url = started.url;
    client = new Client({ name: 'pipeline-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<TextResult>;

  it('a guard that denies stops the call before the method runs', async () => {
    const log = app.get(CallLog);
    expect(await rpcError(call('guarded', { key: 'wrong' }))).toMatchObject({
      code: -32001,
      message: expect.stringContaining('Forbidden'),
    });
    expect(log.entries).not.toContain('guarded ran');
    const allowed = await call('guarded', { key: 'open-sesame' });
    expect(allowed.content[0].text).toBe('guarded ran');
    expect(log.entries).toContain('guarded ran');
  });

  it('a method interceptor wraps the result; a global interceptor sees every call', async () => {
    const log = app.get(CallLog);
    const result = await call('wrapped');
    expect(result.content[0].text).toBe('[wrapped] inner');
    expect(log.entries).toContain('global:wrapped');
  });

  it('a ValidationPipe validates and transforms the DTO; a violation is an isError result', async () => {
    const ok = await call('greet', { name: 'Ada' });
    expect(ok.content[0].text).toBe('hello Ada (GreetDto)');
    const bad = await call('greet', { name: 'A' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toContain('name must be longer than or equal to 2 characters');
  });

  it('an exception filter turns a domain exception into isError', async () => {
    const result = await call('locked');
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Ticket is locked: HD-1 is being edited' }],
    });
  });

  it('a custom parameter decorator reads the MCP execution context', async () => {
    const result = await call('whoami');
    expect(result.content[0].text).toBe('client pipeline-e2e');
  });

  it('a resource published at run time reaches the list and clients hear list_changed', async () => {
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    await new Promise((r) => setTimeout(r, 100)); // the standalone GET stream is open
    const before = (await client.listResources()).resources.map((r) => r.uri);
    expect(before).not.toContain('pipeline://notes/n1');
    await call('publish_note', { id: 'n1' });
    const start = Date.now();
    while (changed === 0 && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 20));
    expect(changed).toBe(1);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([...before, 'pipeline://notes/n1']);
    expect((await client.readResource({ uri: 'pipeline://notes/n1' })).contents[0]).toMatchObject({
      text: 'note n1',
      mimeType: 'text/plain',
    });
  });

  it('logging/setLevel filters the log lines a call sends to the client', async () => {
    const lines: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      lines.push(n.params.data);
    });
    await call('chatty');
    expect(lines).toEqual(['info line', 'error line']);
    lines.length = 0;
    await client.setLoggingLevel('error');
    await call('chatty');
    expect(lines).toEqual(['error line']);
  });

  it('a global guard applies to MCP calls; a class-level guard to prompts and resources', async () => {
    expect(await rpcError(call('globally_blocked'))).toMatchObject({ code: -32001 });
    expect((await client.getPrompt({ name: 'guarded_prompt' })).messages[0].content).toEqual({
      type: 'text',
      text: 'prompt text',
    });
    expect((await client.readResource({ uri: 'pipeline://guarded' })).contents[0]).toMatchObject({
      text: 'resource text',
    });
    const stranger = new Client({ name: 'stranger', version: '1.0.0' });
    await stranger.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(await rpcError(stranger.getPrompt({ name: 'guarded_prompt' }))).toMatchObject({ code: -32001 });
    expect(await rpcError(stranger.readResource({ uri: 'pipeline://guarded' }))).toMatchObject({ code: -32001 });
    await stranger.close();
  });

  it('roots/list goes to a client that declared roots, and fails clearly for one that did not', async () => {
    expect(await rpcError(call('count_roots'))).toMatchObject({
      code: -32000,
      message: expect.stringContaining('did not declare the "roots" capability'),
    });
    const withRoots = new Client({ name: 'pipeline-e2e', version: '1.0.0' }, { capabilities: { roots: {} } });
    withRoots.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: 'file:///repo', name: 'repo' }],
    }));
    await withRoots.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = (await withRoots.callTool({ name: 'count_roots', arguments: {} })) as TextResult;
    expect(result.content[0].text).toBe('1 roots: file:///repo');
    await withRoots.close();
  });

  it('an unexpected error becomes a generic -32603 with no message, path or secret', async () => {
    const error = await rpcError(call('crash'));
    // A typed protocol error for the official client (default `spec` profile: the error in a 200 answer).
    expect(error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(error)).not.toMatch(/hunter2|\/srv|secret\.ts/);
  });
});

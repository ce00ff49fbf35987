import { Test } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { McpCallContext } from '../context/call-context.interface';
import { McpListKind, McpRegistry } from './mcp.registry';

const ctx = {} as McpCallContext;

async function registry(): Promise<McpRegistry> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'svc',
        version: '1.0.0',
        http: false,
        corporate: { agentBrief: false, agentPrompt: false, projectVersion: false },
      }),
    ],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(McpRegistry);
}

const names = (r: McpRegistry) =>
  (JSON.parse(r.page('prompts', '2025-11-25', undefined)).prompts as { name: string }[]).map((p) => p.name);

describe('McpRegistry.addPrompt', () => {
  it('publishes a prompt, rebuilds the cached list and tells listeners', async () => {
    const r = await registry();
    const changes: McpListKind[] = [];
    r.onListChanged((kind) => changes.push(kind));
    expect(names(r)).toEqual([]);
    r.addPrompt(
      {
        name: 'release_notes',
        title: 'Release notes',
        description: 'Notes of this release.',
        arguments: [{ name: 'since', required: true }],
      },
      (args) => `since ${args.since}`,
    );
    expect(changes).toEqual(['prompts']);
    expect(JSON.parse(r.page('prompts', '2025-11-25', undefined)).prompts).toEqual([
      {
        name: 'release_notes',
        title: 'Release notes',
        description: 'Notes of this release.',
        arguments: [{ name: 'since', required: true }],
      },
    ]);
    const entry = r.prompts.get('release_notes')!;
    expect(entry).toMatchObject({
      required: ['since'],
      requiredScopes: [],
      className: 'McpRegistry',
      methodName: 'addPrompt',
    });
    expect(await entry.handler({ since: '1.0' }, ctx)).toBe('since 1.0');
  });

  it('replaces a prompt of the same name, as addResource replaces a URI', async () => {
    const r = await registry();
    r.addPrompt({ name: 'greeting', description: 'First.' }, () => 'one');
    r.addPrompt({ name: 'greeting', description: 'Second.' }, () => 'two', ['svc:read']);
    expect(names(r)).toEqual(['greeting']);
    expect(r.prompts.get('greeting')!.requiredScopes).toEqual(['svc:read']);
    expect(await r.prompts.get('greeting')!.handler({}, ctx)).toBe('two');
  });

  it('applies the @McpPrompt rules', async () => {
    const r = await registry();
    expect(() => r.addPrompt({ name: 'Bad-Name', description: 'x' }, () => '')).toThrow(
      /McpRegistry\.addPrompt: prompt name "Bad-Name" does not match/,
    );
    expect(() => r.addPrompt({ name: 'empty', description: ' ' }, () => '')).toThrow(
      /prompt "empty" has an empty description/,
    );
    expect(r.prompts.size).toBe(0);
  });

  it('withdraws a prompt with removePrompt', async () => {
    const r = await registry();
    const changes: McpListKind[] = [];
    r.addPrompt({ name: 'temporary', description: 'For a while.' }, () => '');
    r.onListChanged((kind) => changes.push(kind));
    expect(r.removePrompt('temporary')).toBe(true);
    expect(r.removePrompt('temporary')).toBe(false);
    expect(names(r)).toEqual([]);
    expect(changes).toEqual(['prompts']);
  });
});

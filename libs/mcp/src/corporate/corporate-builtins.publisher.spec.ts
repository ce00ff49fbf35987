import { Injectable, Logger } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { McpPrompt } from '../decorators/mcp-prompt.decorator';
import { McpResource } from '../decorators/mcp-resource.decorator';
import { McpRegistry } from '../registry/mcp.registry';
import { CORPORATE_URIS } from '../registry/resource-entry.factory';
import { CORPORATE_SCHEMES, uriScheme } from '../registry/registry-rules';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../wire/protocol-version';
import { McpCallContext } from '../context/call-context.interface';
import { McpModuleOptions, ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpCorporateOptions } from '../options/corporate-options.interface';

const ctx = {} as McpCallContext;
const BRIEF = '# Svc\nRoutes billing questions. Not for HR.';
const PROMPT = '# Using svc\nCall `lookup` first.';
const README = '# svc\n\nThe public contract.';

@Injectable()
class Tiny {
  @McpPrompt({ name: 'hello', description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}

async function boot(
  corporate: McpCorporateOptions | undefined,
  extra: Partial<McpModuleOptions> = {},
  ...providers: (new (...a: never[]) => unknown)[]
) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, corporate, ...extra })],
    providers: [Tiny, ...providers],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

/** What `init()` rejected with, as text. */
async function bootError(
  corporate: McpCorporateOptions | undefined,
  ...providers: (new (...a: never[]) => unknown)[]
): Promise<string> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, corporate })],
    providers: [Tiny, ...providers],
  }).compile();
  const error = await moduleRef.init().then(
    () => undefined,
    (e: Error) => e,
  );
  await moduleRef.close();
  if (!error) throw new Error('the boot succeeded');
  return error.message;
}

const read = async (m: TestingModule, uri: string) => m.get(McpRegistry).resources.get(uri)!.handler({}, ctx);
const get = async (m: TestingModule, name: string) => m.get(McpRegistry).prompts.get(name)!.handler({}, ctx);
const ALL = { agentBrief: BRIEF, agentPrompt: PROMPT, readme: README };

describe('corporate built-ins', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  it('publishes both prompts, their mirrors with the same text, project://version and doc://readme, without scopes, even without HTTP', async () => {
    const m = await boot(ALL);
    const registry = m.get(McpRegistry);
    expect([...registry.prompts.keys()]).toEqual(['hello', 'agent_brief', 'agent_prompt']);
    expect([...registry.resources.keys()]).toEqual([
      'svc://agent/brief',
      'svc://agent/prompt',
      'project://version',
      'doc://readme',
    ]);
    expect(await get(m, 'agent_brief')).toBe(BRIEF);
    expect(await read(m, 'svc://agent/brief')).toBe(BRIEF);
    expect(await get(m, 'agent_prompt')).toBe(PROMPT);
    expect(await read(m, 'svc://agent/prompt')).toBe(PROMPT);
    expect(await read(m, 'doc://readme')).toBe(README);
    expect(registry.prompts.get('agent_brief')!.definition).not.toHaveProperty('arguments');
    expect(registry.resources.get('svc://agent/brief')).toMatchObject({
      mimeType: 'text/markdown',
      definition: { size: Buffer.byteLength(BRIEF) },
    });
    expect(registry.resources.get('doc://readme')!.mimeType).toBe('text/markdown');
    for (const e of [
      ...registry.resources.values(),
      registry.prompts.get('agent_brief')!,
      registry.prompts.get('agent_prompt')!,
    ])
      expect(e.requiredScopes).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    await m.close();
  });

  it('lists the built-ins for every protocol era', async () => {
    const m = await boot(ALL);
    const registry = m.get(McpRegistry);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const prompts = JSON.parse(registry.page('prompts', version, undefined)).prompts.map(
        (p: { name: string }) => p.name,
      );
      expect(prompts).toEqual(expect.arrayContaining(['agent_brief', 'agent_prompt']));
      const resources = JSON.parse(registry.page('resources', version, undefined)).resources.map(
        (r: { uri: string }) => r.uri,
      );
      expect(resources).toEqual(
        expect.arrayContaining(['svc://agent/brief', 'svc://agent/prompt', 'project://version', 'doc://readme']),
      );
    }
    await m.close();
  });

  it('project://version carries options.version, also when it comes from package.json', async () => {
    const m = await boot(ALL, { title: 'Service', description: 'Does things.' });
    expect(JSON.parse((await read(m, 'project://version')) as string)).toMatchObject({
      name: 'svc',
      title: 'Service',
      version: '1.2.3',
      description: 'Does things.',
    });
    expect(m.get(McpRegistry).resources.get('project://version')!.mimeType).toBe('application/json');
    await m.close();
    const fromPackage = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'svc', http: false, corporate: { agentBrief: false, agentPrompt: false } })],
    }).compile();
    await fromPackage.init();
    const version = fromPackage.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS).version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(JSON.parse((await read(fromPackage, 'project://version')) as string).version).toBe(version);
    await fromPackage.close();
  });

  it('lets each built-in be switched off, without a warning', async () => {
    const m = await boot({ agentBrief: false, agentPrompt: false, projectVersion: false, readme: false });
    const registry = m.get(McpRegistry);
    expect([...registry.prompts.keys()]).toEqual(['hello']);
    expect([...registry.resources.keys()]).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    await m.close();
    for (const [key, gone] of [
      ['agentBrief', ['agent_brief', 'svc://agent/brief']],
      ['agentPrompt', ['agent_prompt', 'svc://agent/prompt']],
      ['projectVersion', ['project://version']],
      ['readme', ['doc://readme']],
    ] as const) {
      const one = await boot({ ...ALL, [key]: false });
      const names = [...one.get(McpRegistry).prompts.keys(), ...one.get(McpRegistry).resources.keys()];
      expect(names).toHaveLength(7 - gone.length);
      for (const name of gone) expect(names).not.toContain(name);
      await one.close();
    }
  });

  it('warns (standard §10.2) when neither a brief nor a prompt is configured, and does not publish a readme', async () => {
    const m = await boot(undefined);
    const registry = m.get(McpRegistry);
    expect([...registry.prompts.keys()]).toEqual(['hello']);
    expect([...registry.resources.keys()]).toEqual(['project://version']);
    const warnings = warn.mock.calls.map((c) => String(c[0]));
    expect(warnings).toEqual([
      expect.stringMatching(/No agent_brief prompt: set corporate\.agentBrief.*§10\.2/),
      expect.stringMatching(/No agent_prompt prompt: set corporate\.agentPrompt.*§10\.2/),
    ]);
    await m.close();
  });

  it("keeps a team's own entries when the built-in is left unset", async () => {
    @Injectable()
    class Own {
      @McpPrompt({ name: 'agent_brief', description: 'Our own brief.' })
      brief() {
        return 'own brief';
      }
      @McpResource({ uri: 'svc://agent/brief', name: 'brief', mimeType: 'text/plain' })
      mirror() {
        return 'own brief';
      }
      @McpResource({ uri: 'project://version', name: 'version', mimeType: 'application/json' })
      version() {
        return '{"version":"1.2.3"}';
      }
    }
    const m = await boot({ agentPrompt: PROMPT }, {}, Own);
    const registry = m.get(McpRegistry);
    expect(registry.prompts.get('agent_brief')).toMatchObject({ className: 'Own', methodName: 'brief' });
    expect(registry.resources.get('svc://agent/brief')).toMatchObject({ className: 'Own', mimeType: 'text/plain' });
    expect(registry.resources.get('project://version')).toMatchObject({ className: 'Own' });
    expect(warn).not.toHaveBeenCalled();
    await m.close();
  });

  it("warns when a team's own agent_prompt has no mirror", async () => {
    @Injectable()
    class HalfOwn {
      @McpPrompt({ name: 'agent_prompt', description: 'Our own.' })
      instructions() {
        return 'own';
      }
    }
    const m = await boot({ agentBrief: BRIEF }, {}, HalfOwn);
    expect(m.get(McpRegistry).resources.has('svc://agent/prompt')).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('defines the agent_prompt prompt but not its mirror svc://agent/prompt'),
    );
    await m.close();
  });

  it("stops the boot when a configured built-in meets a team's own entry, naming every conflict", async () => {
    @Injectable()
    class Clash {
      @McpPrompt({ name: 'agent_brief', description: 'Ours.' })
      brief() {
        return 'ours';
      }
      @McpResource({ uri: 'doc://readme', name: 'readme', mimeType: 'text/markdown' })
      readme() {
        return '# ours';
      }
      @McpResource({ uri: 'project://version', name: 'version', mimeType: 'application/json' })
      version() {
        return '{}';
      }
    }
    const message = await bootError({ ...ALL, projectVersion: true }, Clash);
    expect(message).toContain(
      'corporate.agentBrief is set, but the app also defines prompt "agent_brief" (Clash.brief)',
    );
    expect(message).toContain(
      'corporate.readme is set, but the app also defines resource "doc://readme" (Clash.readme)',
    );
    expect(message).toContain(
      'corporate.projectVersion is set, but the app also defines resource "project://version" (Clash.version)',
    );
  });

  it('publishes no other paths under use://, project:// and doc://, and refuses a team that tries', async () => {
    const m = await boot(ALL, { http: true });
    const registry = m.get(McpRegistry);
    const reserved = [...registry.resources.keys()].filter((uri) =>
      (CORPORATE_SCHEMES as readonly string[]).includes(uriScheme(uri)!),
    );
    expect(reserved.sort()).toEqual([...CORPORATE_URIS].sort());
    expect(() =>
      registry.addResource({ uri: 'doc://changelog', name: 'changelog', mimeType: 'text/markdown' }, () => ''),
    ).toThrow(/corporate scheme doc:\/\/ allows only/);
    await m.close();
    @Injectable()
    class Owner {
      @McpResource({ uri: 'project://owner', name: 'owner', mimeType: 'text/plain' })
      owner() {
        return 'team';
      }
    }
    expect(await bootError(ALL, Owner)).toMatch(
      /Owner\.owner: resource "project:\/\/owner": the corporate scheme project:\/\/ allows only/,
    );
  });
});

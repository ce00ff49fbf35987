import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { McpSkill } from '../decorators/mcp-skill.decorator';
import { McpScopes } from '../decorators/mcp-scopes.decorator';
import { McpRegistry } from '../registry/mcp.registry';
import { serverCapabilities } from '../protocol/server-capabilities';

const skillMd = (name: string, description = `Does ${name}`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

async function boot(...providers: (new (...a: never[]) => unknown)[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false })],
    providers,
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

/** The message the boot is refused with. */
async function refusal(...providers: (new (...a: never[]) => unknown)[]): Promise<string> {
  try {
    const moduleRef = await boot(...providers);
    await moduleRef.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the boot was not refused');
}

describe('@McpSkill methods at boot', () => {
  it('serves what the methods compute (awaited), with the scopes of the method and its class', async () => {
    @Injectable()
    @McpScopes('billing:read')
    class Billing {
      calls = 0;
      @McpSkill({ path: 'billing/refund-order' })
      async refund() {
        this.calls++;
        return { 'SKILL.md': skillMd('refund-order'), 'references/limits.md': '# Limits\n' };
      }
      @McpSkill()
      @McpScopes('billing:write')
      close() {
        return { 'SKILL.md': skillMd('close-invoice') };
      }
    }
    const moduleRef = await boot(Billing);
    const registry = moduleRef.get(McpRegistry);
    expect(registry.skills.skills.map((s) => s.uri)).toEqual([
      'skill://billing/refund-order/SKILL.md',
      'skill://close-invoice/SKILL.md',
    ]);
    expect(registry.skills.scopesOf('skill://billing/refund-order/SKILL.md')).toEqual(['billing:read']);
    expect(registry.skills.scopesOf('skill://close-invoice/SKILL.md')).toEqual(['billing:read', 'billing:write']);
    expect(registry.declaredScopes()).toEqual(['billing:read', 'billing:write']);
    expect(registry.skills.file('skill://billing/refund-order/references/limits.md')?.text).toBe('# Limits\n');
    expect(moduleRef.get(Billing).calls).toBe(1);
    const capabilities = serverCapabilities(registry, '2026-07-28');
    expect(capabilities.extensions).toMatchObject({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const page = JSON.parse(registry.page('resources', '2026-07-28', undefined));
    expect(page.resources.map((r: { uri: string }) => r.uri)).toEqual([
      'project://version',
      'skill://billing/refund-order/SKILL.md',
      'skill://close-invoice/SKILL.md',
    ]);
    await moduleRef.close();
  });

  it('refuses the boot naming each method and the rule, a throwing method included', async () => {
    @Injectable()
    class Broken {
      @McpSkill()
      noName() {
        return { 'SKILL.md': '---\ndescription: x\n---\n' };
      }
      @McpSkill()
      async fails(): Promise<never> {
        throw new Error('policy service unreachable');
      }
      @McpSkill({ path: 'dup' })
      one() {
        return { 'SKILL.md': skillMd('dup') };
      }
      @McpSkill()
      two() {
        return { 'SKILL.md': skillMd('dup') };
      }
    }
    const message = await refusal(Broken);
    expect(message).toContain('Invalid MCP registry (3 problems)');
    expect(message).toContain('Broken.noName: @McpSkill SKILL.md: "name" missing');
    expect(message).toContain('Broken.fails: @McpSkill failed at boot: policy service unreachable');
    expect(message).toMatch(
      /Broken\.(one|two): @McpSkill "dup": its folder is at, inside or around Broken\.(one|two)'s/,
    );
  });

  it("refuses a frontmatter's TODO: sentences in production, naming the method (a warning elsewhere)", async () => {
    @Injectable()
    class Generated {
      @McpSkill()
      draft() {
        return { 'SKILL.md': skillMd('draft-reply', "'TODO: say when to use this skill'") };
      }
    }
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(await refusal(Generated)).toContain(
        'Generated.draft: skill "skill://draft-reply/SKILL.md" publishes "TODO:" placeholders in its SKILL.md frontmatter (description)',
      );
    } finally {
      process.env.NODE_ENV = saved;
    }
    const moduleRef = await boot(Generated);
    expect(moduleRef.get(McpRegistry).skills.size).toBe(1);
    await moduleRef.close();
  });
});

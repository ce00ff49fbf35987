import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpRegistry } from '../../registry/mcp.registry';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpPrincipal } from '../../auth/mcp-principal';
import { HandlerContext } from './handler-context';
import { getSkill, listSkills, readDirectory } from './skills.handler';
import { readResource } from './resources.handler';

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Does ${name}\n---\n# ${name}\n`;
const caller = (...scopes: string[]): McpPrincipal => ({ subject: 's', scopes: new Set(scopes), claims: {} });

describe('skills handlers: scopes per skill', () => {
  let root: string;
  let registry: McpRegistry;
  const request = (principal: McpPrincipal | undefined, params: Record<string, unknown>, modern = true) =>
    ({
      registry,
      params,
      principal,
      peer: { era: { modern }, protocolVersion: modern ? '2026-07-28' : '2025-11-25' },
    }) as never as HandlerContext;
  const code = async (run: () => unknown): Promise<unknown> => {
    try {
      await run();
    } catch (error) {
      return (error as { code?: number }).code;
    }
    return 'answered';
  };
  const listed = (principal?: McpPrincipal): string[] =>
    JSON.parse((listSkills(request(principal, {})) as { raw: string }).raw).skills.map((s: { uri: string }) => s.uri);
  const resources = (principal?: McpPrincipal): string[] =>
    JSON.parse(registry.page('resources', '2026-07-28', undefined, principal)).resources.map(
      (r: { uri: string }) => r.uri,
    );

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'skills-scopes-'));
    const write = (path: string, content: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    };
    write('open/SKILL.md', skillMd('open'));
    write('secret/SKILL.md', skillMd('secret'));
    write('secret/notes/plan.md', 'plan');
    write('open/inner/SKILL.md', skillMd('inner'));
    const scopes = { secret: ['tickets:write', 'tickets:read'], 'open/inner': ['admin'] };
    registry = new McpRegistry({ pageSize: 10, skills: { root, scopes } } as never as ResolvedMcpOptions);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists to each caller the skills whose scopes it holds, in skills/list and resources/list', () => {
    const all = ['skill://open/SKILL.md', 'skill://open/inner/SKILL.md', 'skill://secret/SKILL.md'].sort();
    expect(listed(undefined)).toEqual(all);
    expect(listed({ ...caller(), allScopes: true })).toEqual(all);
    expect(listed(caller('tickets:read'))).toEqual(['skill://open/SKILL.md']);
    expect(listed(caller('tickets:read', 'tickets:write'))).toEqual([
      'skill://open/SKILL.md',
      'skill://secret/SKILL.md',
    ]);
    expect(listed(caller('tickets:read'))).toEqual(['skill://open/SKILL.md']);
    expect(resources(caller())).toEqual(['skill://open/SKILL.md']);
    expect(resources(caller('admin'))).toEqual(['skill://open/SKILL.md', 'skill://open/inner/SKILL.md']);
    expect(registry.declaredScopes()).toEqual(['admin', 'tickets:read', 'tickets:write']);
  });

  it('answers a hidden skill, its files and folders as unknown ones, in both eras', async () => {
    const reader = caller('tickets:read');
    for (const uri of ['skill://secret/SKILL.md', 'skill://open/inner/SKILL.md', 'skill://nope/SKILL.md'])
      expect(await code(() => getSkill(request(reader, { uri })))).toBe(-32602);
    for (const uri of ['skill://secret', 'skill://secret/notes', 'skill://nope'])
      expect(await code(() => readDirectory(request(reader, { uri })))).toBe(-32602);
    for (const uri of ['skill://secret/SKILL.md', 'skill://secret/notes/plan.md', 'skill://nope/SKILL.md']) {
      expect(await code(() => readResource(request(reader, { uri })))).toBe(-32602);
      expect(await code(() => readResource(request(reader, { uri }, false)))).toBe(-32002);
    }
    const writer = caller('tickets:read', 'tickets:write');
    expect(getSkill(request(writer, { uri: 'skill://secret/SKILL.md' }))).toMatchObject({ skill: {} });
    expect(readDirectory(request(writer, { uri: 'skill://secret/notes' }))).toMatchObject({ resources: [{}] });
    expect(await readResource(request(writer, { uri: 'skill://secret/notes/plan.md' }))).toMatchObject({
      contents: [{ text: 'plan' }],
    });
  });

  it("serves a nested hidden skill's files as files of the enclosing skill the caller may see", async () => {
    const reader = caller();
    expect(await readResource(request(reader, { uri: 'skill://open/inner/SKILL.md' }))).toMatchObject({
      contents: [{ mimeType: 'text/markdown' }],
    });
    expect(readDirectory(request(reader, { uri: 'skill://open/inner' }))).toMatchObject({ resources: [{}] });
    expect(await code(() => getSkill(request(reader, { uri: 'skill://open/inner/SKILL.md' })))).toBe(-32602);
  });
});

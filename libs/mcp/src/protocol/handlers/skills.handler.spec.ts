import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpRegistry } from '../../registry/mcp.registry';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpPrincipal } from '../../auth/mcp-principal';
import { HandlerContext } from './handler-context';
import { getSkill, listSkills, readDirectory } from './skills.handler';
import { readResource } from './resources.handler';
import { serverCapabilities, serves } from '../server-capabilities';
import { MODERN_METHODS, SESSION_ERA_METHODS, routeOf } from '../method-table';

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Does ${name}\n---\n# ${name}\n`;
const caller = (...scopes: string[]): McpPrincipal => ({ subject: 's', scopes: new Set(scopes), claims: {} });
/** What a handler gets of one request: the registry, the params, the caller and its era. */
const contextOf = (
  registry: McpRegistry,
  principal: McpPrincipal | undefined,
  params: Record<string, unknown>,
  modern = true,
) =>
  ({
    registry,
    params,
    principal,
    peer: { era: { modern }, protocolVersion: modern ? '2026-07-28' : '2025-11-25' },
  }) as never as HandlerContext;
/** The JSON-RPC error code `run` throws, or `'answered'`. */
const code = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return (error as { code?: number }).code;
  }
  return 'answered';
};

describe('skills handlers', () => {
  let root: string;
  let registry: McpRegistry;
  const request = (params: Record<string, unknown>, modern = true) => contextOf(registry, undefined, params, modern);

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'skills-handler-'));
    const write = (path: string, content: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    };
    write('alpha/SKILL.md', skillMd('alpha'));
    write('beta/SKILL.md', skillMd('beta'));
    write('beta/templates/one.md', 'one');
    write('beta/templates/data.bin', '\u0000\u0001');
    registry = new McpRegistry({ pageSize: 1, skills: { root } } as ResolvedMcpOptions);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists one whole entry per page, with a cursor to the next', () => {
    const first = JSON.parse((listSkills(request({})) as { raw: string }).raw);
    expect(first.skills.map((s: { uri: string }) => s.uri)).toEqual(['skill://alpha/SKILL.md']);
    const second = JSON.parse((listSkills(request({ cursor: first.nextCursor })) as { raw: string }).raw);
    expect(second.skills[0].resources).toHaveLength(3);
    expect(second.nextCursor).toBeUndefined();
  });

  it('gets a skill by its SKILL.md URI, -32602 for anything else', async () => {
    expect(getSkill(request({ uri: 'skill://beta/SKILL.md' }))).toMatchObject({
      skill: { uri: 'skill://beta/SKILL.md', frontmatter: { name: 'beta' } },
    });
    for (const uri of ['skill://beta/templates/one.md', 'skill://beta', 'skill://beta/../alpha/SKILL.md', 42])
      expect(await code(() => getSkill(request({ uri })))).toBe(-32602);
  });

  it('reads a directory, -32602 for a file or an unknown URI', async () => {
    expect(readDirectory(request({ uri: 'skill://beta/templates' }))).toEqual({
      resources: [
        { uri: 'skill://beta/templates/data.bin', name: 'data.bin', mimeType: 'application/octet-stream' },
        { uri: 'skill://beta/templates/one.md', name: 'one.md', mimeType: 'text/markdown' },
      ],
    });
    for (const uri of ['skill://beta/SKILL.md', 'skill://beta/templates/', 'skill://gamma', 'skill://beta/%2e%2e'])
      expect(await code(() => readDirectory(request({ uri })))).toBe(-32602);
  });

  it('reads skill files through resources/read: text, or a blob for binary; traversal is not found', async () => {
    expect(await readResource(request({ uri: 'skill://beta/templates/one.md' }))).toEqual({
      contents: [{ uri: 'skill://beta/templates/one.md', mimeType: 'text/markdown', text: 'one' }],
    });
    expect(await readResource(request({ uri: 'skill://beta/templates/data.bin' }))).toEqual({
      contents: [{ uri: 'skill://beta/templates/data.bin', mimeType: 'application/octet-stream', blob: 'AAE=' }],
    });
    for (const uri of ['skill://beta/templates/../SKILL.md', 'skill://beta/%2e%2e/alpha/SKILL.md', join(root, 'alpha')])
      expect(await code(() => readResource(request({ uri })))).toBe(-32602);
    expect(await code(() => readResource(request({ uri: 'skill://nope/SKILL.md' }, false)))).toBe(-32002);
  });

  it('declares the extension and resources in both eras, and routes the methods in both', () => {
    for (const version of ['2025-11-25', '2026-07-28'] as const) {
      expect(serverCapabilities(registry, version)).toMatchObject({
        resources: {},
        extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
      });
    }
    expect(serves(registry, 'skills')).toBe(true);
    for (const method of ['skills/list', 'skills/get', 'resources/directory/read']) {
      expect(routeOf(MODERN_METHODS, method)?.capability).toBe('skills');
      expect(routeOf(SESSION_ERA_METHODS, method)).toBe(routeOf(MODERN_METHODS, method));
    }
  });

  it('lists each SKILL.md in resources/list, named and described by its frontmatter', () => {
    const { resources } = JSON.parse(registry.page('resources', '2026-07-28', undefined)) as { resources: unknown[] };
    expect(resources).toEqual([
      { uri: 'skill://alpha/SKILL.md', name: 'alpha', description: 'Does alpha', mimeType: 'text/markdown' },
    ]);
  });

  it('declares nothing without skills', () => {
    const none = new McpRegistry({ pageSize: 10 } as ResolvedMcpOptions);
    expect(serves(none, 'skills')).toBe(false);
    expect(serverCapabilities(none, '2026-07-28')).toEqual({ logging: {} });
  });
});

describe('skills handlers: scopes per skill', () => {
  let root: string;
  let registry: McpRegistry;
  const request = (principal: McpPrincipal | undefined, params: Record<string, unknown>, modern = true) =>
    contextOf(registry, principal, params, modern);
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

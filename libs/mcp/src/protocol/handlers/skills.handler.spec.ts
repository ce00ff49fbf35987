import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpRegistry } from '../../registry/mcp.registry';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { HandlerContext } from './handler-context';
import { getSkill, listSkills, readDirectory } from './skills.handler';
import { readResource } from './resources.handler';
import { serverCapabilities, serves } from '../server-capabilities';
import { MODERN_METHODS, SESSION_ERA_METHODS, routeOf } from '../method-table';

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Does ${name}\n---\n# ${name}\n`;

describe('skills handlers', () => {
  let root: string;
  let registry: McpRegistry;
  const request = (params: Record<string, unknown>, modern = true) =>
    ({
      registry,
      params,
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

import { PROMPTS_RESOURCES_CHECKS } from './prompts-resources.checks';
import type { CheckContext } from '../check-context';

/** A server named `desk` listing `uris`, declaring `extensions`, as the check sees it through its context. */
function serverListing(uris: string[], extensions: Record<string, unknown> = {}): CheckContext {
  const answer = (result: Record<string, unknown>) => ({ status: 200, body: { result } });
  return {
    legacy: async () => ({ init: answer({ serverInfo: { name: 'desk', version: '1.0.0' } }) }),
    capabilities: async () => ({ resources: {}, extensions }),
    request: async (_standard: string, method: string) =>
      method === 'resources/list'
        ? answer({ resources: uris.map((uri) => ({ uri, name: uri })) })
        : answer({ resourceTemplates: [] }),
  } as unknown as CheckContext;
}

describe('resources.schemes', () => {
  const check = (ctx: CheckContext) => PROMPTS_RESOURCES_CHECKS['resources.schemes'](ctx, '1.2');
  const listed = ['desk://tickets', 'project://version', 'skill://triage/SKILL.md', 'ui://desk/board'];

  it("accepts an extension's scheme only when the server declares that extension", async () => {
    expect(await check(serverListing(listed))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining(['skill://triage/SKILL.md: another scheme', 'ui://desk/board: another scheme']),
    });
    const both = { 'io.modelcontextprotocol/skills': {}, 'io.modelcontextprotocol/ui': {} };
    expect(await check(serverListing(listed, both))).toMatchObject({ status: 'pass' });
    expect(await check(serverListing(listed, { 'io.modelcontextprotocol/ui': {} }))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining(['skill://triage/SKILL.md: another scheme']),
    });
  });

  it('still refuses any other scheme', async () => {
    const skills = { 'io.modelcontextprotocol/skills': {} };
    expect(await check(serverListing(['desk://a', 'https://example.com/x'], skills))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining(['https://example.com/x: another scheme']),
    });
  });
});

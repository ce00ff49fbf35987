import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { STDIO_SERVER, serverEnv } from './support/stdio-clients';
import { DESK_SKILLS_DIR, checkDeskSkills } from './support/skills-checks';

/**
 * Agent Skills over stdio (docs/skills.md): the built desk with MCP_SKILLS_DIR, spawned by the official client 2.4
 * in each era, serves the same list, manifests, files and directories as over HTTP, and the same errors.
 */
describe.each([
  ['2025-11-25', 'legacy' as const],
  ['2026-07-28', { pin: '2026-07-28' as const }],
])('skills over stdio, in a %s session', (version, mode) => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'stdio-skills-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new StdioClientTransport({
        ...STDIO_SERVER,
        env: serverEnv({ MCP_SKILLS_DIR: DESK_SKILLS_DIR }),
        stderr: 'ignore',
      }),
    );
  });
  afterAll(() => client?.close());

  it('lists, gets, reads (digest and size checked), reads a directory, and refuses what is not served', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    await checkDeskSkills(client, version === '2026-07-28');
  });

  it('serves a stdio caller every skill, whatever MCP_SKILLS_SCOPES says: stdio has no principal', async () => {
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.startsWith('skill://'))).toHaveLength(2);
  });
});

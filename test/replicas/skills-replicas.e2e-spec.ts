import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { DESK_SKILLS_DIR, checkDeskSkills } from '../support/skills-checks';

/**
 * Agent Skills across two desk replicas on the machine's Redis (docs/skills.md): each replica reads the same folder at
 * boot, so both serve the same list, the same digests and the same files, in each era.
 */
describe('skills across replicas on Redis', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let replicas: RunningServer[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    replicas = await startReplicas(2, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      MCP_SKILLS_DIR: DESK_SKILLS_DIR,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stopReplicas(replicas);
    await issuer?.close();
    await cleanup();
  });

  it.each([
    ['2025-11-25', 'legacy' as const],
    ['2026-07-28', { pin: '2026-07-28' as const }],
  ])('serves the same skills and digests from each replica, in a %s session', async (version, mode) => {
    const token = await issuer.mint({ sub: 'skills-replicas' });
    const listings: unknown[] = [];
    for (const replica of replicas) {
      const client = new Client({ name: 'skills-replicas-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(replica.url), { authProvider: { token: async () => token } }),
      );
      listings.push(await checkDeskSkills(client, version === '2026-07-28'));
    }
    expect(listings[1]).toEqual(listings[0]);
  });
});

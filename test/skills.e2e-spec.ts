import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { rpcError } from './support/rpc-error';
import { RunningServer, startDeskHttp } from './support/server-process';
import { CONFORMANCE_NEXT_CLI } from './support/conformance-fixture';

const SKILLS_DIR = resolve(__dirname, 'fixtures/desk/skills');
const TRIAGE = 'skill://support/triage-ticket/SKILL.md';
const CLOSE = 'skill://close-ticket/SKILL.md';
const SEVERITY = 'skill://support/triage-ticket/references/severity.md';

/**
 * Agent Skills over MCP (io.modelcontextprotocol/skills, SEP-2640): the desk with MCP_SKILLS_DIR set, driven by the
 * official client 2.4 and its SkillsClient in both eras. Skills are declared and served alike to a 2025-11-25 session
 * and to 2026-07-28 requests; only the envelope differs (resultType, ttlMs, cacheScope on 2026-07-28).
 */
describe('skills served by the desk', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startDeskHttp({ MCP_SKILLS_DIR: SKILLS_DIR });
  });
  afterAll(() => server?.stop());

  describe.each([
    ['2025-11-25', 'legacy' as const],
    ['2026-07-28', { pin: '2026-07-28' }],
  ])('in a %s session', (version, mode) => {
    let client: Client;
    let skills: SkillsClient;
    const modern = version === '2026-07-28';

    beforeAll(async () => {
      client = new Client({ name: 'skills-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { authProvider: { token: async () => server.token } }),
      );
      skills = new SkillsClient(client);
    });
    afterAll(() => client?.close());

    it('declares the extension with directoryRead, and resources', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const caps = client.getServerCapabilities() as Record<string, unknown>;
      expect(caps.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
      expect(caps.resources).toBeDefined();
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(true);
    });

    it('lists both skills with their verbatim frontmatter and complete manifests', async () => {
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.uri)).toEqual([CLOSE, TRIAGE]);
      expect(listing.skills[0].frontmatter).toEqual({
        name: 'close-ticket',
        description: 'Close a solved desk ticket with a short note the customer can read.',
        license: 'Apache-2.0',
        metadata: { version: '1.0' },
      });
      expect(listing.skills[1].resources).toEqual([
        expect.objectContaining({ uri: TRIAGE }),
        expect.objectContaining({ uri: SEVERITY }),
      ]);
      if (modern) expect(listing).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    });

    it('gets a skill and reads its files, each verified against its digest and size', async () => {
      const { skill } = await skills.get(TRIAGE);
      const main = await skills.read(skill);
      expect(main).toMatchObject({ verified: true, frontmatter: { name: 'triage-ticket' } });
      const file = await skills.read(skill, 'references/severity.md');
      const bytes = readFileSync(resolve(SKILLS_DIR, 'support/triage-ticket/references/severity.md'));
      expect(file.verified).toBe(true);
      expect(Buffer.from(file.bytes).equals(bytes)).toBe(true);
      expect(skill.resources).toContainEqual({
        uri: SEVERITY,
        size: bytes.length,
        digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      });
      const read = await client.readResource({ uri: SEVERITY });
      expect(read.contents).toEqual([{ uri: SEVERITY, mimeType: 'text/markdown', text: bytes.toString('utf8') }]);
    });

    it('reads a skill directory: direct children, folders as inode/directory', async () => {
      const root = await skills.readDirectory('skill://support/triage-ticket');
      expect(root.resources).toEqual([
        { uri: TRIAGE, name: 'SKILL.md', mimeType: 'text/markdown' },
        { uri: 'skill://support/triage-ticket/references', name: 'references', mimeType: 'inode/directory' },
      ]);
      const refs = await skills.readDirectory('skill://support/triage-ticket/references');
      expect(refs.resources.map((r) => r.name)).toEqual(['severity.md']);
      if (modern) expect(root).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
      expect((await rpcError(skills.readDirectory(TRIAGE))).code).toBe(-32602);
    });

    it('answers -32602 for an unknown skill and for traversal attempts', async () => {
      for (const uri of ['skill://support/chargebacks/SKILL.md', SEVERITY, 'skill://support/triage-ticket'])
        expect((await rpcError(skills.get(uri))).code).toBe(-32602);
      for (const uri of [
        'skill://support/triage-ticket/../../close-ticket/SKILL.md',
        'skill://support/triage-ticket/%2e%2e/%2e%2e/close-ticket/SKILL.md',
        'skill://support%2Ftriage-ticket%2FSKILL.md',
        `skill://${SKILLS_DIR}/close-ticket/SKILL.md`,
        'skill:///etc/passwd',
      ]) {
        // resources/read keeps its era's "not found": -32602 in 2026-07-28, -32002 in the 2025 revisions.
        expect((await rpcError(client.readResource({ uri }))).code).toBe(modern ? -32602 : -32002);
        expect((await rpcError(skills.get(uri))).code).toBe(-32602);
      }
    });

    it('lists each SKILL.md in resources/list, named and described by its frontmatter, and no other skill file', async () => {
      const { resources } = await client.listResources();
      expect(resources.filter((r) => r.uri.startsWith('skill://'))).toEqual([
        {
          uri: CLOSE,
          name: 'close-ticket',
          description: 'Close a solved desk ticket with a short note the customer can read.',
          mimeType: 'text/markdown',
        },
        {
          uri: TRIAGE,
          name: 'triage-ticket',
          description: 'Triage a new desk ticket, set its severity and route it to the right queue.',
          mimeType: 'text/markdown',
        },
      ]);
    });
  });
});

/** The official conformance suite's skills scenarios (0.2.0-alpha.12) on the desk with skills: every check passes. */
describe('skills: official conformance scenarios sep-2640-*', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_AUTH_DISABLED: 'true', MCP_SKILLS_DIR: SKILLS_DIR });
  });
  afterAll(() => server?.stop());

  it.each(['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'])(
    '%s: every check passes, no warning',
    async (scenario) => {
      const url = server.url.replace('127.0.0.1', 'localhost');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [CONFORMANCE_NEXT_CLI, 'server', '--url', url, '--scenario', scenario],
        { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000 },
      );
      expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    },
    150_000,
  );
});

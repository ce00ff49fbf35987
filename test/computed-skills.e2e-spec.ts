import { createHash } from 'node:crypto';
import { McpTestIssuer } from '@app/mcp-testing';
import type { Client } from '@modelcontextprotocol/client';
import { connectSkillsClient } from './support/skills-checks';
import { rpcError } from './support/rpc-error';
import { RunningServer } from './support/server-process';
import { startConformanceFixture } from './support/conformance-fixture';

const GUIDE = 'skill://fixture-guide/SKILL.md';
const REPORT = 'skill://computed/report-summary/SKILL.md';
const INTERNAL = 'skill://internal-notes/SKILL.md';
const TEMPLATE = 'skill://computed/report-summary/templates/summary.md';
const PIXEL = 'skill://computed/report-summary/assets/pixel.png';
const digestOf = (bytes: Uint8Array | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Skills computed by provider methods (`@McpSkill`, docs/skills.md) on the conformance fixture, beside its folder
 * skill, driven by the official client 2.4 and its SkillsClient in both eras with authentication on: listed, got and
 * read (text and base64 blob, each verified against the manifest's digest and size) like folder skills, their folders
 * readable, and the one whose method requires `skills:internal` hidden from a caller without it (answered as unknown).
 */
describe('computed skills (@McpSkill) served like folder skills', () => {
  let issuer: McpTestIssuer;
  let server: RunningServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await McpTestIssuer.start({ audience: 'mcp:test' });
    server = await startConformanceFixture(issuer.env());
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
    await issuer?.close();
  });

  const connect = async (scope: string, version: string) => {
    const token = await issuer.mint({ scope, sub: `computed-${scope || 'nobody'}` });
    const connected = await connectSkillsClient(server.url, token, version, 'computed-skills-e2e');
    clients.push(connected.client);
    return connected;
  };

  describe.each(['2025-11-25', '2026-07-28'])('in a %s session', (version) => {
    const notFound = version === '2026-07-28' ? -32602 : -32002;

    it('lists the computed skill beside the folder one, with its complete manifest', async () => {
      const { client, skills } = await connect('', version);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect(skills.supported).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.uri)).toEqual([REPORT, GUIDE]);
      const report = listing.skills[0];
      expect(report.frontmatter).toEqual({
        name: 'report-summary',
        description: 'Summarise a conformance report in five lines for a pull request.',
      });
      expect(report.resources).toEqual([
        expect.objectContaining({ uri: REPORT }),
        expect.objectContaining({ uri: PIXEL }),
        expect.objectContaining({ uri: TEMPLATE }),
      ]);
      const { resources } = await client.listResources();
      expect(resources.filter((r) => r.uri.startsWith('skill://')).map((r) => [r.uri, r.name])).toEqual([
        [REPORT, 'report-summary'],
        [GUIDE, 'fixture-guide'],
      ]);
    });

    it('gets it and reads every file, text and blob, each verified against its digest and size', async () => {
      const { client, skills } = await connect('', version);
      const { skill } = await skills.get(REPORT);
      expect((await skills.read(skill)).verified).toBe(true);
      const template = await skills.read(skill, 'templates/summary.md');
      expect(template.verified).toBe(true);
      expect(Buffer.from(template.bytes).toString('utf8')).toBe(
        '# Conformance: {passed}/{total}\n\n- failing: {failing}\n',
      );
      const pixel = await skills.read(skill, 'assets/pixel.png');
      expect(pixel.verified).toBe(true);
      expect(skill.resources).toContainEqual({ uri: PIXEL, size: pixel.bytes.length, digest: digestOf(pixel.bytes) });
      const read = await client.readResource({ uri: PIXEL });
      expect(read.contents).toEqual([
        { uri: PIXEL, mimeType: 'image/png', blob: Buffer.from(pixel.bytes).toString('base64') },
      ]);
    });

    it('reads its folders; a folder above it (an organising prefix) is not one', async () => {
      const { skills } = await connect('', version);
      const root = await skills.readDirectory('skill://computed/report-summary');
      expect(root.resources).toEqual([
        { uri: REPORT, name: 'SKILL.md', mimeType: 'text/markdown' },
        { uri: 'skill://computed/report-summary/assets', name: 'assets', mimeType: 'inode/directory' },
        { uri: 'skill://computed/report-summary/templates', name: 'templates', mimeType: 'inode/directory' },
      ]);
      const assets = await skills.readDirectory('skill://computed/report-summary/assets');
      expect(assets.resources).toEqual([{ uri: PIXEL, name: 'pixel.png', mimeType: 'image/png' }]);
      expect((await rpcError(skills.readDirectory('skill://computed'))).code).toBe(-32602);
    });

    it('hides the skill whose method requires skills:internal from a caller without it, as an unknown one', async () => {
      const { client, skills } = await connect('tickets:read', version);
      const hidden = await rpcError(skills.get(INTERNAL));
      const unknown = await rpcError(skills.get('skill://nope/SKILL.md'));
      expect(hidden).toMatchObject({ code: -32602, message: unknown.message });
      expect((await rpcError(client.readResource({ uri: INTERNAL }))).code).toBe(notFound);
      expect((await rpcError(skills.readDirectory('skill://internal-notes'))).code).toBe(-32602);
      const { skills: holder } = await connect('skills:internal', version);
      expect((await holder.list()).skills.map((s) => s.uri)).toEqual([REPORT, GUIDE, INTERNAL]);
      const { skill } = await holder.get(INTERNAL);
      expect(await holder.read(skill)).toMatchObject({ verified: true, frontmatter: { name: 'internal-notes' } });
    });
  });
});

import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectSkillsClient } from './support/skills-checks';
import { rpcError } from './support/rpc-error';
import { DESK_MAIN, RunningServer, startDeskHttp, startHttpServer } from './support/server-process';
import { TestIssuer } from './support/test-issuer';

const SKILLS_DIR = resolve(__dirname, 'fixtures/desk/skills');
const TRIAGE = 'skill://support/triage-ticket/SKILL.md';
const CLOSE = 'skill://close-ticket/SKILL.md';
const NOTE = 'skill://close-ticket/templates/closing-note.md';

/**
 * Scopes per skill (MCP_SKILLS_SCOPES, docs/skills.md): the desk requires tickets:write for close-ticket and
 * tickets:read for triage-ticket. A caller sees the skills whose scopes it holds; for the others every method answers
 * as for a skill that does not exist.
 */
describe('skills: scopes per skill', () => {
  let server: RunningServer;
  let issuer: TestIssuer;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startDeskHttp({
      MCP_SKILLS_DIR: SKILLS_DIR,
      MCP_SKILLS_SCOPES: 'close-ticket=tickets:write;support/triage-ticket=tickets:read',
    });
    issuer = server.issuer!;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
  });

  const connect = async (scope: string, version: string) => {
    const token = await issuer.mint({ scope, sub: `skills-${scope || 'nobody'}` });
    const connected = await connectSkillsClient(server.url, token, version, 'skills-scopes-e2e');
    clients.push(connected.client);
    return connected;
  };

  describe.each(['2025-11-25', '2026-07-28'])('in a %s session', (version) => {
    const notFound = version === '2026-07-28' ? -32602 : -32002;

    it('lists to each caller the skills whose scopes it holds, in skills/list and resources/list', async () => {
      const expected: [string, string[]][] = [
        ['', []],
        ['tickets:read', [TRIAGE]],
        ['tickets:read tickets:write', [CLOSE, TRIAGE]],
      ];
      for (const [scope, uris] of expected) {
        const { client, skills } = await connect(scope, version);
        expect((await skills.list()).skills.map((s) => s.uri)).toEqual(uris);
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri).filter((u) => u.startsWith('skill://'))).toEqual(uris);
      }
    });

    it('answers a hidden skill as an unknown one: get, read of any of its files, directory read', async () => {
      const { client, skills } = await connect('tickets:read', version);
      for (const uri of [CLOSE, 'skill://close-ticket/SKILL.mdx'])
        expect(await rpcError(skills.get(uri))).toMatchObject({ code: -32602 });
      for (const uri of [CLOSE, NOTE, 'skill://close-ticket/templates/nope.md'])
        expect((await rpcError(client.readResource({ uri }))).code).toBe(notFound);
      for (const uri of ['skill://close-ticket', 'skill://close-ticket/templates', 'skill://nope'])
        expect((await rpcError(skills.readDirectory(uri))).code).toBe(-32602);
      const hidden = await rpcError(skills.get(CLOSE));
      const unknown = await rpcError(skills.get('skill://nope/SKILL.md'));
      expect(hidden.message).toBe(unknown.message);
      const { skill } = await skills.get(TRIAGE);
      expect((await skills.read(skill)).verified).toBe(true);
    });

    it('serves the hidden skill to a caller holding its scope', async () => {
      const { client, skills } = await connect('tickets:read tickets:write', version);
      const { skill } = await skills.get(CLOSE);
      expect((await skills.read(skill, 'templates/closing-note.md')).verified).toBe(true);
      expect((await client.readResource({ uri: NOTE })).contents).toHaveLength(1);
      expect((await skills.readDirectory('skill://close-ticket/templates')).resources).toHaveLength(1);
    });
  });

  it('refuses the boot when a scopes entry names no skill', async () => {
    const outcome = await startHttpServer(DESK_MAIN, {
      MCP_AUTH_DISABLED: 'true',
      MCP_SKILLS_DIR: SKILLS_DIR,
      MCP_SKILLS_SCOPES: 'triage-ticket=tickets:read;close-ticket=tickets:write',
    }).then(
      async (s) => (await s.stop(), 'started'),
      (e: Error) => e.message,
    );
    expect(outcome).toContain('skills.scopes: "triage-ticket" names no skill under the root');
  });
});

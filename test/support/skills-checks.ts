import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { rpcError } from './rpc-error';

/** The desk fixture's skills folder (MCP_SKILLS_DIR). */
export const DESK_SKILLS_DIR = resolve(__dirname, '../fixtures/desk/skills');
export const DESK_SKILL_URIS = ['skill://close-ticket/SKILL.md', 'skill://support/triage-ticket/SKILL.md'];

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * The desk's skills as any transport serves them, through the official client 2.4 and its SkillsClient: the list
 * with complete manifests, each file read and checked against its digest and size and against the file on disk, a
 * directory read, and -32602 (or the 2025 revisions' -32002 for resources/read) for what is not served. Returns the
 * listing, so that replicas can be compared.
 */
export async function checkDeskSkills(client: Client, modern: boolean): Promise<unknown> {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  expect(skills.directoryRead).toBe(true);
  const listing = await skills.list();
  expect(listing.invalid).toEqual([]);
  expect(listing.skills.map((s) => s.uri)).toEqual(DESK_SKILL_URIS);
  for (const entry of listing.skills) {
    const { skill } = await skills.get(entry.uri);
    expect(skill).toEqual(entry);
    for (const file of skill.resources) {
      if (typeof file === 'string') throw new Error(`a manifest entry without digest: ${file}`);
      const path = file.uri.slice('skill://'.length);
      const onDisk = readFileSync(resolve(DESK_SKILLS_DIR, path));
      expect(file).toEqual({ uri: file.uri, size: onDisk.length, digest: digestOf(onDisk) });
      const relative = file.uri.slice(skill.uri.length - 'SKILL.md'.length);
      const read = await skills.read(skill, relative === 'SKILL.md' ? undefined : relative);
      expect(read.verified).toBe(true);
      expect(Buffer.from(read.bytes).equals(onDisk)).toBe(true);
    }
  }
  const folder = await skills.readDirectory('skill://support/triage-ticket');
  expect(folder.resources.map((r) => [r.name, r.mimeType])).toEqual([
    ['SKILL.md', 'text/markdown'],
    ['references', 'inode/directory'],
  ]);
  expect((await rpcError(skills.get('skill://support/chargebacks/SKILL.md'))).code).toBe(-32602);
  expect((await rpcError(skills.readDirectory('skill://support'))).code).toBe(-32602);
  const unknown = await rpcError(client.readResource({ uri: 'skill://support/triage-ticket/../../etc/passwd' }));
  expect(unknown.code).toBe(modern ? -32602 : -32002);
  return listing.skills;
}

/**
 * The official client 2.4 on `url` with a bearer token, in the 2025-11-25 session era (`legacy`) or pinned to
 * 2026-07-28, and its SkillsClient. The caller closes the client.
 */
export async function connectSkillsClient(
  url: string,
  token: string,
  version: string,
  name: string,
): Promise<{ client: Client; skills: SkillsClient }> {
  const mode = version === '2026-07-28' ? { pin: '2026-07-28' as const } : ('legacy' as const);
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: { token: async () => token } }));
  return { client, skills: new SkillsClient(client) };
}

import { createHash } from 'node:crypto';
import { SKILLS_CHECKS } from './skills.checks';
import type { CheckContext } from '../check-context';

const SKILL_MD = '---\nname: triage\ndescription: Triage a ticket.\n---\n# Triage\n';
const URI = 'skill://triage/SKILL.md';
const entry = (over: Record<string, unknown> = {}) => ({
  uri: URI,
  frontmatter: { name: 'triage', description: 'Triage a ticket.' },
  resources: [
    { uri: URI, digest: `sha256:${createHash('sha256').update(SKILL_MD).digest('hex')}`, size: SKILL_MD.length },
  ],
  ...over,
});

/** A server declaring `extensions`, listing `skills` and answering a read of each URI by `reads`. */
function server(
  skills: unknown[] | undefined,
  reads: Record<string, Record<string, unknown>> = {},
  extensions: Record<string, unknown> = { 'io.modelcontextprotocol/skills': { directoryRead: true } },
): CheckContext {
  const answer = (body: Record<string, unknown>) => ({ method: 'POST', path: '/mcp', status: 200, body });
  return {
    capabilities: async () => ({ resources: {}, extensions }),
    request: async (_standard: string, method: string, params: { uri?: string }) => {
      if (method === 'skills/list')
        return skills
          ? answer({ result: { skills } })
          : answer({ error: { code: -32601, message: 'Method not found' } });
      const read = reads[params.uri ?? ''];
      return read
        ? answer({ result: { contents: [read] } })
        : answer({ error: { code: -32602, message: 'Not found' } });
    },
  } as unknown as CheckContext;
}

describe('ext.skills', () => {
  const check = (ctx: CheckContext) => SKILLS_CHECKS['ext.skills'](ctx, '2.0');
  const text = { uri: URI, mimeType: 'text/markdown', text: SKILL_MD };

  it('is not applicable without the extension, or with no skill listed', async () => {
    expect(await check(server([entry()], {}, {}))).toMatchObject({
      status: 'not_applicable',
      evidence: ['the `io.modelcontextprotocol/skills` extension is not declared'],
    });
    expect(await check(server([]))).toMatchObject({ status: 'not_applicable' });
  });

  it('passes when every SKILL.md reads back with its digest and size, as text or as a blob', async () => {
    expect(await check(server([entry()], { [URI]: text }))).toMatchObject({
      status: 'pass',
      evidence: [expect.stringContaining('1 skill; 1 SKILL.md read back, matching digest and size')],
    });
    const blob = { uri: URI, mimeType: 'text/markdown', blob: Buffer.from(SKILL_MD).toString('base64') };
    expect(await check(server([entry()], { [URI]: blob }))).toMatchObject({ status: 'pass' });
  });

  it('fails a skill whose SKILL.md cannot be read, or whose bytes differ from the manifest', async () => {
    expect(await check(server([entry()]))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([
        expect.stringMatching(/^skill:\/\/triage\/SKILL\.md cannot be read: .*-32602/),
      ]),
    });
    expect(await check(server([entry()], { [URI]: { ...text, text: `${SKILL_MD}!` } }))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([
        `${URI}: ${SKILL_MD.length + 1} bytes read, the manifest says ${SKILL_MD.length}`,
      ]),
    });
    const sameSize = SKILL_MD.replace('# Triage', '# TRIAGE');
    expect(await check(server([entry()], { [URI]: { ...text, text: sameSize } }))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([expect.stringContaining("does not match the manifest's digest")]),
    });
  });

  it('fails an incomplete manifest and a skills/list that does not answer', async () => {
    expect(await check(server([entry({ resources: [{ uri: URI }] })], { [URI]: text }))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([
        expect.stringContaining('a manifest entry without uri, sha256 digest or size'),
      ]),
    });
    expect(await check(server([entry({ resources: [] })], { [URI]: text }))).toMatchObject({
      status: 'fail',
      evidence: expect.arrayContaining([`${URI}: its manifest does not list its own SKILL.md`]),
    });
    expect(await check(server(undefined))).toMatchObject({
      status: 'fail',
      evidence: [expect.stringContaining('skills/list: POST /mcp -> 200')],
    });
  });
});

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ComputedSkillSource, addComputedSkills } from './computed-skills';
import { SkillCatalog } from './skill-catalog';
import { SKILL_LIMITS } from './skills.constants';
import { loadSkills } from './skills.loader';

const skillMd = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name}\n${extra}---\n\n# ${name}\n`;
const source = (files: unknown, more: Partial<ComputedSkillSource> = {}): ComputedSkillSource => ({
  where: 'Skills.compute',
  files,
  scopes: [],
  ...more,
});
const sha = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
/** The problems of a set of computed sources, as the boot would list them. */
const problemsOf = (sources: ComputedSkillSource[], folder = SkillCatalog.EMPTY) =>
  addComputedSkills(folder, sources, { ...SKILL_LIMITS, maxFiles: 3, maxBytes: 1_000 }).problems.map(
    (p) => `${p.where}: ${p.message}`,
  );

describe('addComputedSkills', () => {
  it('serves a computed skill like a folder one: manifest, digests, sizes, text and blob reads, directories', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0xff]);
    const { catalog, problems, accepted } = addComputedSkills(SkillCatalog.EMPTY, [
      source(
        { 'SKILL.md': skillMd('refund-order'), 'references/limits.md': '# Limits\n', 'assets/logo.png': png },
        { path: 'billing/refund-order', where: 'Billing.refundSkill' },
      ),
    ]);
    expect(problems).toEqual([]);
    expect(accepted).toEqual([
      { uri: 'skill://billing/refund-order/SKILL.md', frontmatter: expect.any(Object), where: 'Billing.refundSkill' },
    ]);
    const skill = catalog.skill('skill://billing/refund-order/SKILL.md')!;
    expect(skill.frontmatter).toEqual({ name: 'refund-order', description: 'Does refund-order' });
    expect(skill.resources).toEqual([
      {
        uri: 'skill://billing/refund-order/SKILL.md',
        digest: sha(skillMd('refund-order')),
        size: skillMd('refund-order').length,
      },
      { uri: 'skill://billing/refund-order/assets/logo.png', digest: sha(png), size: 5 },
      { uri: 'skill://billing/refund-order/references/limits.md', digest: sha('# Limits\n'), size: 9 },
    ]);
    expect(catalog.file('skill://billing/refund-order/references/limits.md')?.content).toEqual({
      uri: 'skill://billing/refund-order/references/limits.md',
      mimeType: 'text/markdown',
      text: '# Limits\n',
    });
    expect(catalog.file('skill://billing/refund-order/assets/logo.png')?.content).toMatchObject({ blob: 'iVBOR/8=' });
    expect(catalog.directory('skill://billing/refund-order')?.map((c) => [c.name, c.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
    ]);
    expect(catalog.directory('skill://billing/refund-order/references')?.map((c) => c.name)).toEqual(['limits.md']);
    expect(catalog.directory('skill://billing')).toBeUndefined();
  });

  it("places a skill at its frontmatter's name by default and joins the folder's skills, ordered by URI", () => {
    const root = mkdtempSync(join(tmpdir(), 'computed-skills-'));
    try {
      mkdirSync(join(root, 'triage-ticket'));
      writeFileSync(join(root, 'triage-ticket/SKILL.md'), skillMd('triage-ticket'));
      const folder = loadSkills(root);
      const { catalog } = addComputedSkills(folder, [
        source({ 'SKILL.md': skillMd('zeta') }),
        source({ 'SKILL.md': skillMd('alpha') }),
      ]);
      expect(catalog.skills.map((s) => s.uri)).toEqual([
        'skill://alpha/SKILL.md',
        'skill://triage-ticket/SKILL.md',
        'skill://zeta/SKILL.md',
      ]);
      expect(catalog.file('skill://triage-ticket/SKILL.md')?.text).toBe(skillMd('triage-ticket'));
      expect(
        problemsOf(
          [
            source({ 'SKILL.md': skillMd('triage-ticket') }),
            source({ 'SKILL.md': skillMd('x') }, { path: 'triage-ticket/x' }),
          ],
          folder,
        ),
      ).toEqual([
        'Skills.compute: @McpSkill "triage-ticket": its folder is at, inside or around the skills folder\'s skill://triage-ticket/SKILL.md; give it a path of its own',
        'Skills.compute: @McpSkill "triage-ticket/x": its folder is at, inside or around the skills folder\'s skill://triage-ticket/SKILL.md; give it a path of its own',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('limits a skill to the scopes of its method and class; a hidden skill is unknown', () => {
    const { catalog } = addComputedSkills(SkillCatalog.EMPTY, [
      source({ 'SKILL.md': skillMd('secret'), 'notes.md': 'n' }, { scopes: ['b:read', 'a:read', 'b:read'] }),
    ]);
    expect(catalog.scopesOf('skill://secret/SKILL.md')).toEqual(['a:read', 'b:read']);
    const without = (required: readonly string[]) => required.length === 0;
    expect(catalog.visibleSkills(without)).toEqual([]);
    expect(catalog.skill('skill://secret/SKILL.md', without)).toBeUndefined();
    expect(catalog.file('skill://secret/notes.md', without)).toBeUndefined();
    expect(catalog.directory('skill://secret', without)).toBeUndefined();
    expect(catalog.file('skill://secret/notes.md', () => true)?.text).toBe('n');
  });

  it('lists every problem at once, each naming the method and the rule', () => {
    const problems = problemsOf([
      source('not files', { where: 'A.text' }),
      source({ 'README.md': 'x' }, { where: 'B.noSkillMd' }),
      source({ 'SKILL.md': skillMd('Bad_Name') }, { where: 'C.badName' }),
      source({ 'SKILL.md': skillMd('other') }, { where: 'D.wrongFolder', path: 'tools/refund' }),
      source({ 'SKILL.md': '# no frontmatter\n' }, { where: 'E.noFrontmatter' }),
      source({ 'SKILL.md': skillMd('paths'), '../escape.md': 'x', 'a/./b.md': 'x', 'n.md': 5 }, { where: 'F.paths' }),
      source({ 'SKILL.md': skillMd('many'), 'a.md': 'a', 'b.md': 'b', 'c.md': 'c' }, { where: 'G.tooMany' }),
      source({ 'SKILL.md': skillMd('big'), 'big.md': 'x'.repeat(1_000) }, { where: 'H.tooBig' }),
      source({ 'SKILL.md': skillMd('dup') }, { where: 'I.first' }),
      source({ 'SKILL.md': skillMd('dup') }, { where: 'J.second' }),
      source({ 'SKILL.md': skillMd('dir') }, { where: 'K.badPath', path: '/abs/dir' }),
      source({ 'SKILL.md': Uint8Array.from([0xff, 0xfe]) }, { where: 'L.binary' }),
    ]);
    expect(problems).toEqual([
      "A.text: @McpSkill must return the skill's files ({ 'SKILL.md': '...', 'path/file': text or bytes })",
      'A.text: @McpSkill returned no "SKILL.md" (the skill\'s instructions, with its frontmatter)',
      'B.noSkillMd: @McpSkill returned no "SKILL.md" (the skill\'s instructions, with its frontmatter)',
      'C.badName: @McpSkill Bad_Name/SKILL.md: "name" "Bad_Name" breaks the naming rules (1-64 of a-z, 0-9 and "-", no leading, trailing or double hyphen)',
      'D.wrongFolder: @McpSkill tools/refund/SKILL.md: "name" "other" must equal its folder\'s name',
      'E.noFrontmatter: @McpSkill SKILL.md: frontmatter missing: SKILL.md must begin with a "---" line',
      'F.paths: @McpSkill file "../escape.md": not a relative path ("references/a.md": no "..", "." or "\\")',
      'F.paths: @McpSkill file "a/./b.md": not a relative path ("references/a.md": no "..", "." or "\\")',
      'F.paths: @McpSkill file "n.md": its content must be a string or bytes (a Uint8Array)',
      'G.tooMany: @McpSkill: 4 files, more than the 3 a skill may hold',
      'H.tooBig: @McpSkill: 1047 bytes, more than the 1000 a skill may hold',
      'J.second: @McpSkill "dup": its folder is at, inside or around I.first\'s skill://dup/SKILL.md; give it a path of its own',
      'K.badPath: @McpSkill path "/abs/dir": not a relative path ("support/refund-order")',
      'L.binary: @McpSkill SKILL.md: frontmatter unparseable: the file is not UTF-8 text',
    ]);
  });
});

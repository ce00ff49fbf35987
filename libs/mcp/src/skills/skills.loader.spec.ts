import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSkills } from './skills.loader';
import { SKILL_LIMITS } from './skills.constants';

const skillMd = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name}\n${extra}---\n\n# ${name}\n`;

/** Writes `content` at `path` under `root`, making the folders. */
const writeUnder = (root: string, path: string, content: string | Buffer) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
/** The message `run` refuses the skills with; fails the test when it accepts them. */
const refusalOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the skills were accepted');
};

describe('loadSkills', () => {
  let root: string;
  const write = (path: string, content: string | Buffer) => writeUnder(root, path, content);
  const refusal = (): string =>
    refusalOf(() => loadSkills(root, { limits: { ...SKILL_LIMITS, maxFiles: 3, maxBytes: 1_000 } }));

  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'skills-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads nested skills with complete manifests, digests and sizes', () => {
    write('git-workflow/SKILL.md', skillMd('git-workflow', 'license: Apache-2.0\nmetadata:\n  version: "1.0"\n'));
    write('support/triage-ticket/SKILL.md', skillMd('triage-ticket'));
    write('support/triage-ticket/references/severity.md', '# Severity\n');
    write('support/triage-ticket/assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]));
    write('support/README.md', 'not a skill: not served\n');
    const catalog = loadSkills(root);
    expect(catalog.skills.map((s) => s.uri)).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://support/triage-ticket/SKILL.md',
    ]);
    expect(catalog.skill('skill://git-workflow/SKILL.md')?.frontmatter).toEqual({
      name: 'git-workflow',
      description: 'Does git-workflow',
      license: 'Apache-2.0',
      metadata: { version: '1.0' },
    });
    const triage = catalog.skill('skill://support/triage-ticket/SKILL.md')!;
    expect(triage.resources.map((r) => r.uri)).toEqual([
      'skill://support/triage-ticket/SKILL.md',
      'skill://support/triage-ticket/assets/logo.png',
      'skill://support/triage-ticket/references/severity.md',
    ]);
    const severity = triage.resources[2];
    expect(severity.size).toBe(11);
    expect(severity.digest).toBe(`sha256:${createHash('sha256').update('# Severity\n').digest('hex')}`);
    expect(catalog.file('skill://support/triage-ticket/references/severity.md')).toMatchObject({
      mimeType: 'text/markdown',
      text: '# Severity\n',
    });
    const logo = catalog.file('skill://support/triage-ticket/assets/logo.png')!;
    expect(logo.text).toBeUndefined();
    expect(logo.mimeType).toBe('image/png');
    expect(logo.content).toEqual({ uri: logo.uri, mimeType: 'image/png', blob: 'iVBOR/8=' });
    expect(catalog.file('skill://support/README.md')).toBeUndefined();
  });

  it('lists the enclosing skill with its nested skill files, and nested SKILL.md as a skill of its own', () => {
    write('outer/SKILL.md', skillMd('outer'));
    write('outer/inner/SKILL.md', skillMd('inner'));
    const catalog = loadSkills(root);
    expect(catalog.skill('skill://outer/SKILL.md')?.resources.map((r) => r.uri)).toEqual([
      'skill://outer/SKILL.md',
      'skill://outer/inner/SKILL.md',
    ]);
    expect(catalog.skill('skill://outer/inner/SKILL.md')?.resources).toHaveLength(1);
    expect(catalog.directory('skill://outer')).toEqual([
      { uri: 'skill://outer/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
      { uri: 'skill://outer/inner', name: 'inner', mimeType: 'inode/directory' },
    ]);
    expect(catalog.directory('skill://outer/inner/SKILL.md')).toBeUndefined();
  });

  it('answers only exact URIs: no traversal, no encoded paths, no absolute paths', () => {
    write('a-skill/SKILL.md', skillMd('a-skill'));
    write('secret.txt', 'not served');
    const catalog = loadSkills(root);
    for (const uri of [
      'skill://a-skill/../secret.txt',
      'skill://a-skill/%2e%2e/secret.txt',
      'skill://a-skill%2FSKILL.md',
      'skill://a-skill/./SKILL.md',
      `skill://${join(root, 'secret.txt')}`,
      join(root, 'a-skill/SKILL.md'),
      'file:///etc/passwd',
    ]) {
      expect(catalog.file(uri)).toBeUndefined();
      expect(catalog.skill(uri)).toBeUndefined();
      expect(catalog.directory(uri)).toBeUndefined();
    }
  });

  it('refuses every problem at once, each with its file and rule', () => {
    write('no-front/SKILL.md', '# no frontmatter\n');
    write('bad-yaml/SKILL.md', '---\nname: [unclosed\n---\n');
    write('no-desc/SKILL.md', '---\nname: no-desc\n---\n');
    write('no-name/SKILL.md', '---\ndescription: nameless\n---\n');
    write('Bad--Name/SKILL.md', skillMd('Bad--Name'));
    write('other-dir/SKILL.md', skillMd('not-the-dir'));
    write('too-many/SKILL.md', skillMd('too-many'));
    for (const f of ['a', 'b', 'c']) write(`too-many/${f}.md`, f);
    write('too-big/SKILL.md', skillMd('too-big'));
    write('too-big/big.bin', Buffer.alloc(2_000));
    write('linked/SKILL.md', skillMd('linked'));
    symlinkSync('/etc/hostname', join(root, 'linked/escape.txt'));
    const message = refusal();
    expect(message).toContain('no-front/SKILL.md: frontmatter missing');
    expect(message).toContain('bad-yaml/SKILL.md: frontmatter unparseable');
    expect(message).toContain('no-desc/SKILL.md: "description" missing');
    expect(message).toContain('no-name/SKILL.md: "name" missing');
    expect(message).toContain('Bad--Name/SKILL.md: "name" "Bad--Name" breaks the naming rules');
    expect(message).toContain('other-dir/SKILL.md: "name" "not-the-dir" must equal its folder\'s name');
    expect(message).toContain('too-many: 4 files, more than the 3');
    expect(message).toContain('too-big: ');
    expect(message).toContain('linked/escape.txt: symbolic links are refused');
    expect(message).toContain('(9 problem(s))');
  });

  it('applies the naming rules', () => {
    for (const bad of ['-lead', 'trail-', 'dou--ble', 'UPPER', 'x'.repeat(65), 'under_score']) {
      write(`${bad}/SKILL.md`, skillMd(bad));
      expect(refusal()).toContain('breaks the naming rules');
      rmSync(join(root, bad), { recursive: true });
    }
    write(`${'x'.repeat(64)}/SKILL.md`, skillMd('x'.repeat(64)));
    write('a1-b2/SKILL.md', skillMd('a1-b2'));
    expect(loadSkills(root).size).toBe(2);
  });

  it('refuses a SKILL.md at the root, a missing root and a symlinked root', () => {
    write('SKILL.md', skillMd('root'));
    expect(refusal()).toContain('a skill must be in a folder named after it');
    expect(() => loadSkills(join(root, 'missing'))).toThrow('the skills folder does not exist');
    symlinkSync(root, `${root}-link`);
    try {
      expect(() => loadSkills(`${root}-link`)).toThrow('must be a directory');
    } finally {
      rmSync(`${root}-link`);
    }
  });
});

describe('loadSkills: scopes and the bound on the walk', () => {
  let root: string;
  const write = (path: string, content: string | Buffer) => writeUnder(root, path, content);
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'skills-bound-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('takes scopes by skill path, and refuses every path naming no skill, with the other problems', () => {
    write('support/triage/SKILL.md', skillMd('triage'));
    write('close/SKILL.md', skillMd('close'));
    const catalog = loadSkills(root, { scopes: { 'support/triage': ['b', 'a', 'a'], close: [] } });
    expect(catalog.scopesOf('skill://support/triage/SKILL.md')).toEqual(['a', 'b']);
    expect(catalog.scopesOf('skill://close/SKILL.md')).toEqual([]);
    write('broken/SKILL.md', '# no frontmatter\n');
    const message = refusalOf(() =>
      loadSkills(root, { scopes: { support: ['a'], 'support/triage/': ['a'], missing: ['a'], '': ['a'] } }),
    );
    expect(message).toContain('skills.scopes: "support" names no skill under the root');
    expect(message).toContain('skills.scopes: "support/triage/" names no skill');
    expect(message).toContain('skills.scopes: "missing" names no skill');
    expect(message).toContain('skills.scopes: "" names no skill');
    expect(message).toContain('broken/SKILL.md: frontmatter missing');
    expect(message).toContain('(5 problem(s))');
  });

  it('stops the walk once the root holds more files and folders than the bound', () => {
    const limits = { ...SKILL_LIMITS, maxRootEntries: 5 };
    write('a/SKILL.md', skillMd('a'));
    write('a/b/c/d.md', 'd');
    expect(loadSkills(root, { limits }).size).toBe(1);
    write('a/b/c/e.md', 'e');
    write('a/b/c/f.md', 'f');
    write('z/SKILL.md', '# would be a problem, but the walk stopped before\n');
    const message = refusalOf(() => loadSkills(root, { limits }));
    expect(message).toContain('more than 5 files and folders, the most a skills folder may hold');
    expect(message).toContain('(1 problem(s))');
  });

  it('stops the walk once the root holds more bytes than the bound', () => {
    const limits = { ...SKILL_LIMITS, maxRootBytes: 1_000 };
    write('a/SKILL.md', skillMd('a'));
    write('a/big.bin', Buffer.alloc(600));
    expect(loadSkills(root, { limits }).size).toBe(1);
    write('b/SKILL.md', skillMd('b'));
    write('b/big.bin', Buffer.alloc(600));
    expect(refusalOf(() => loadSkills(root, { limits }))).toContain('more than 1000 bytes');
  });

  it('bounds the walk at 4,096 files and folders and 64 MiB by default', () => {
    expect(SKILL_LIMITS).toEqual({
      maxFiles: 512,
      maxBytes: 16 * 1024 * 1024,
      maxRootEntries: 4_096,
      maxRootBytes: 64 * 1024 * 1024,
    });
  });
});

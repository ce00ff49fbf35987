import { readFrontmatter } from './skill-frontmatter';
import { DirectoryChild, SkillCatalog, SkillEntry, SkillFile } from './skill-catalog';
import { SKILL_LIMITS, SkillLimits } from './skills.constants';
import { checkedFrontmatter, directoriesOf, joinPath, prepareSkillFile, skillDirOf, skillEntryOf } from './skill-files';

/** A skill a provider method computed at boot (`@McpSkill`), as discovery hands it over. @internal */
export interface ComputedSkillSource {
  /** `Class.method`, named by every problem. */
  readonly where: string;
  /** The `path` option; undefined for the frontmatter's `name`. */
  readonly path?: string;
  /** What the method returned (resolved): checked here. */
  readonly files: unknown;
  /** `@McpScopes` of the method and its class. */
  readonly scopes: readonly string[];
}

/** A computed skill's problem, by the method that computed it. @internal */
export interface ComputedSkillProblem {
  readonly where: string;
  readonly message: string;
}

/** What {@link addComputedSkills} gives back: the catalogue served, and each problem (the boot is refused on any). */
export interface ComputedSkillsOutcome {
  readonly catalog: SkillCatalog;
  readonly problems: readonly ComputedSkillProblem[];
  /** The computed skills accepted, each with the method that computed it (for the `TODO:` check). */
  readonly accepted: readonly { uri: string; frontmatter: Readonly<Record<string, unknown>>; where: string }[];
}

/** A relative path of `/`-separated segments, none empty, `.` or `..`, without `\` or control characters. */
const isRelativePath = (path: string): boolean =>
  path.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && ![...s].some((c) => c === '\\' || c < ' '));

/**
 * Checks the skills computed by `@McpSkill` methods by the rules a skills folder follows (a `SKILL.md` with valid
 * frontmatter, the naming rules, 512 files and 16 MiB per skill), and refuses one at, inside or around another
 * skill's folder (the folder's or another method's); prepares each file once (digest, size, read content) and adds
 * the accepted ones to `folder`.
 * @internal
 */
export function addComputedSkills(
  folder: SkillCatalog,
  sources: readonly ComputedSkillSource[],
  limits: SkillLimits = SKILL_LIMITS,
): ComputedSkillsOutcome {
  const problems: ComputedSkillProblem[] = [];
  const taken = folder.skills.map((s) => ({ dir: skillDirOf(s.uri), by: `the skills folder's ${s.uri}` }));
  const skills: SkillEntry[] = [];
  const files = new Map<string, SkillFile>();
  const directories = new Map<string, DirectoryChild[]>();
  const scopes = new Map<string, readonly string[]>();
  const accepted: { uri: string; frontmatter: Readonly<Record<string, unknown>>; where: string }[] = [];
  for (const source of sources) {
    const problem = (message: string) => problems.push({ where: source.where, message });
    const skill = computeSkill(source, limits, problem);
    if (!skill) continue;
    const clash = taken.find((t) => t.dir === skill.dir || within(skill.dir, t.dir) || within(t.dir, skill.dir));
    if (clash) {
      problem(`@McpSkill "${skill.dir}": its folder is at, inside or around ${clash.by}; give it a path of its own`);
      continue;
    }
    taken.push({ dir: skill.dir, by: `${source.where}'s ${skill.entry.uri}` });
    skills.push(skill.entry);
    for (const file of skill.files) files.set(file.uri, file);
    for (const [uri, children] of directoriesOf(skill.dirs, skill.paths, [skill.entry])) directories.set(uri, children);
    if (source.scopes.length > 0) scopes.set(skill.entry.uri, [...new Set(source.scopes)].sort());
    accepted.push({ uri: skill.entry.uri, frontmatter: skill.entry.frontmatter, where: source.where });
  }
  const computed = new SkillCatalog(skills, files, directories, scopes);
  return { catalog: folder.with(computed), problems, accepted };
}

const within = (inner: string, outer: string) => inner.startsWith(`${outer}/`);

/** One computed skill, prepared; undefined (and each problem noted) when refused. */
function computeSkill(source: ComputedSkillSource, limits: SkillLimits, note: (message: string) => void) {
  let refused = false;
  const problem = (message: string) => {
    refused = true;
    note(message);
  };
  const contents = filesOf(source.files, problem);
  const skillMd = contents.get('SKILL.md');
  if (!skillMd) problem('@McpSkill returned no "SKILL.md" (the skill\'s instructions, with its frontmatter)');
  if (source.path !== undefined && !isRelativePath(source.path))
    problem(`@McpSkill path ${JSON.stringify(source.path)}: not a relative path ("support/refund-order")`);
  const total = [...contents.values()].reduce((sum, b) => sum + b.length, 0);
  if (contents.size > limits.maxFiles)
    problem(`@McpSkill: ${contents.size} files, more than the ${limits.maxFiles} a skill may hold`);
  if (total > limits.maxBytes) problem(`@McpSkill: ${total} bytes, more than the ${limits.maxBytes} a skill may hold`);
  if (!skillMd || refused) return undefined;
  const dir = source.path ?? nameIn(skillMd);
  const files = [...contents].map(([path, bytes]) => prepareSkillFile(joinPath(dir, path), bytes));
  const where = `@McpSkill ${joinPath(dir, 'SKILL.md')}`;
  const frontmatter = checkedFrontmatter(where, dir, files[[...contents.keys()].indexOf('SKILL.md')], problem);
  if (!frontmatter) return undefined;
  const paths = [...contents.keys()].map((p) => joinPath(dir, p));
  const dirs = [...new Set(paths.flatMap((p) => foldersOf(p, dir)))];
  return { dir, entry: skillEntryOf(dir, files, frontmatter), files, paths, dirs };
}

/** The files a method returned, as bytes by relative path; each one refused noted. */
function filesOf(value: unknown, problem: (message: string) => void): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    problem(`@McpSkill must return the skill's files ({ 'SKILL.md': '...', 'path/file': text or bytes })`);
    return out;
  }
  for (const [path, content] of Object.entries(value as Record<string, unknown>)) {
    if (!isRelativePath(path))
      problem(`@McpSkill file ${JSON.stringify(path)}: not a relative path ("references/a.md": no "..", "." or "\\")`);
    else if (typeof content === 'string') out.set(path, Buffer.from(content, 'utf8'));
    else if (content instanceof Uint8Array) out.set(path, Buffer.from(content));
    else problem(`@McpSkill file ${JSON.stringify(path)}: its content must be a string or bytes (a Uint8Array)`);
  }
  return out;
}

/** The frontmatter's `name` of a SKILL.md, or '' (the frontmatter check then names what is wrong). */
function nameIn(skillMd: Buffer): string {
  const outcome = readFrontmatter(skillMd.toString('utf8'));
  const name = 'frontmatter' in outcome ? outcome.frontmatter.name : undefined;
  return typeof name === 'string' ? name : '';
}

/** The skill's folder and each folder between it and the file at `path`. */
function foldersOf(path: string, dir: string): string[] {
  const out = [dir];
  for (let at = path.indexOf('/', dir.length + 1); at > 0; at = path.indexOf('/', at + 1)) out.push(path.slice(0, at));
  return out;
}

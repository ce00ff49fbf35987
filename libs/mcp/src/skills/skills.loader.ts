import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readFrontmatter } from './skill-frontmatter';
import { DirectoryChild, SkillCatalog, SkillEntry, SkillFile } from './skill-catalog';
import {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILL_NAME,
  SKILL_SCHEME,
  SkillLimits,
  isTextType,
  mimeTypeOf,
} from './skills.constants';

/** What the walk found under the root: regular files with their sizes, directories, problems. Paths use `/`. */
interface Tree {
  readonly root: string;
  readonly files: Map<string, number>;
  readonly dirs: string[];
  readonly problems: string[];
  /** Set when the walk stopped at the folder's bound: nothing else is checked. */
  cut?: boolean;
}

/** What {@link loadSkills} is given beside the root. @internal */
export interface LoadSkillsOptions {
  /** The scopes each skill requires, by the skill's path under the root (`support/triage-ticket`). */
  readonly scopes?: Readonly<Record<string, readonly string[]>>;
  readonly limits?: SkillLimits;
}

/**
 * Reads every skill under `root` once, at boot: each directory holding a `SKILL.md` is a skill (skills may nest).
 * Checks everything before refusing, and refuses with one error naming each file and the rule it breaks.
 * @internal
 */
export function loadSkills(root: string, options: LoadSkillsOptions = {}): SkillCatalog {
  const limits = options.limits ?? SKILL_LIMITS;
  const tree = walk(resolve(root), limits);
  if (tree.cut) refuse(tree);
  const contents = new Map<string, SkillFile>();
  const skills: SkillEntry[] = [];
  const skillDirs = tree.dirs.filter((d) => tree.files.has(join(d, 'SKILL.md')));
  for (const dir of skillDirs) {
    const entry = readSkill(tree, dir, limits, contents);
    if (entry) skills.push(entry);
  }
  const seen = new Set<string>();
  for (const s of skills) {
    if (seen.has(s.uri)) tree.problems.push(`${s.uri}: two skills with the same URI`);
    seen.add(s.uri);
  }
  const scopes = scopesBySkill(tree, skillDirs, options.scopes ?? {});
  if (tree.problems.length > 0) refuse(tree);
  skills.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return new SkillCatalog(skills, contents, directoriesOf(tree, skills), scopes);
}

function refuse(tree: Tree): never {
  throw new Error(
    `McpModule: the skills in ${tree.root} cannot be served (${tree.problems.length} problem(s)):\n` +
      tree.problems.map((p) => `  - ${p}`).join('\n'),
  );
}

/** The scopes option by SKILL.md URI; an entry naming no skill under the root is a problem. */
function scopesBySkill(
  tree: Tree,
  skillDirs: readonly string[],
  scopes: Readonly<Record<string, readonly string[]>>,
): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const [path, required] of Object.entries(scopes)) {
    if (path === '' || !skillDirs.includes(path))
      tree.problems.push(`skills.scopes: ${JSON.stringify(path)} names no skill under the root (no ${path}/SKILL.md)`);
    else if (required.length > 0) out.set(uriOfPath(join(path, 'SKILL.md')), [...new Set(required)].sort());
  }
  return out;
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** `skill://` and the path's segments, each percent-encoded: the one spelling looked up. @internal */
export function uriOfPath(path: string): string {
  return SKILL_SCHEME + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Every regular file and directory under the root; symbolic links and other kinds are problems. Stops as soon as the
 * root holds more files and folders, or more bytes, than the limits allow.
 */
function walk(root: string, limits: SkillLimits): Tree {
  const tree: Tree = { root, files: new Map(), dirs: [], problems: [] };
  let stat;
  try {
    stat = lstatSync(root);
  } catch {
    tree.problems.push(`${root}: the skills folder does not exist`);
    return tree;
  }
  if (!stat.isDirectory()) {
    tree.problems.push(`${root}: the skills folder must be a directory (not a file or a symbolic link)`);
    return tree;
  }
  let entries = 0;
  let bytes = 0;
  const over = (what: string) => {
    tree.cut = true;
    tree.problems.push(`${root}: ${what}; the walk stopped there (is skills.root the right folder?)`);
  };
  const visit = (dir: string): void => {
    tree.dirs.push(dir);
    const names = readdirSync(resolve(root, dir)).sort();
    if ((entries += names.length) > limits.maxRootEntries)
      return over(`more than ${limits.maxRootEntries} files and folders, the most a skills folder may hold`);
    for (const name of names) {
      const path = join(dir, name);
      const s = lstatSync(resolve(root, path));
      if (s.isSymbolicLink()) tree.problems.push(`${path}: symbolic links are refused (serve regular files only)`);
      else if (s.isDirectory()) visit(path);
      else if (s.isFile()) tree.files.set(path, s.size);
      else tree.problems.push(`${path}: not a regular file`);
      if (s.isFile() && (bytes += s.size) > limits.maxRootBytes)
        over(`more than ${limits.maxRootBytes} bytes, the most a skills folder may hold`);
      if (tree.cut) return;
    }
  };
  visit('');
  return tree;
}

/** The entry of the skill in `dir`, its files added to `contents`; undefined (and problems noted) when refused. */
function readSkill(
  tree: Tree,
  dir: string,
  limits: SkillLimits,
  contents: Map<string, SkillFile>,
): SkillEntry | undefined {
  const skillMd = join(dir, 'SKILL.md');
  if (dir === '') {
    tree.problems.push('SKILL.md: a skill must be in a folder named after it, not at the root of the skills folder');
    return undefined;
  }
  const paths = [...tree.files.keys()].filter((p) => p.startsWith(`${dir}/`));
  const bytes = paths.reduce((sum, p) => sum + (tree.files.get(p) ?? 0), 0);
  const before = tree.problems.length;
  if (paths.length > limits.maxFiles)
    tree.problems.push(`${dir}: ${paths.length} files, more than the ${limits.maxFiles} a skill may hold`);
  if (bytes > limits.maxBytes)
    tree.problems.push(`${dir}: ${bytes} bytes, more than the ${limits.maxBytes} a skill may hold`);
  if (tree.problems.length > before) return undefined;
  const files = paths.map((p) => fileAt(tree.root, p, contents));
  const frontmatter = checkedFrontmatter(tree, dir, files[paths.indexOf(skillMd)]);
  if (!frontmatter) return undefined;
  const uri = uriOfPath(skillMd);
  const resources = files
    .map((f) => ({ uri: f.uri, digest: f.digest, size: f.size }))
    .sort((a, b) => (a.uri === uri ? -1 : b.uri === uri ? 1 : a.uri < b.uri ? -1 : 1));
  return { uri, frontmatter, resources };
}

/** The file at `path`, read and prepared once (a nested skill's files belong to the enclosing skill too). */
function fileAt(root: string, path: string, contents: Map<string, SkillFile>): SkillFile {
  const uri = uriOfPath(path);
  const known = contents.get(uri);
  if (known) return known;
  const bytes = readFileSync(resolve(root, path));
  const mimeType = mimeTypeOf(path);
  const text = isTextType(mimeType) ? utf8(bytes) : undefined;
  const file: SkillFile = {
    uri,
    mimeType,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
    ...(text === undefined ? {} : { text }),
    content: text === undefined ? { uri, mimeType, blob: bytes.toString('base64') } : { uri, mimeType, text },
  };
  contents.set(uri, file);
  return file;
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The SKILL.md's frontmatter when it follows the Agent Skills rules; each broken rule noted. */
function checkedFrontmatter(tree: Tree, dir: string, skillMd: SkillFile): Record<string, unknown> | undefined {
  const where = join(dir, 'SKILL.md');
  if (skillMd.text === undefined) {
    tree.problems.push(`${where}: frontmatter unparseable: the file is not UTF-8 text`);
    return undefined;
  }
  const outcome = readFrontmatter(skillMd.text);
  if ('problem' in outcome) {
    tree.problems.push(`${where}: ${outcome.problem}`);
    return undefined;
  }
  const { name, description } = outcome.frontmatter;
  const before = tree.problems.length;
  if (typeof name !== 'string' || name === '') tree.problems.push(`${where}: "name" missing`);
  else if (!SKILL_NAME.test(name))
    tree.problems.push(
      `${where}: "name" ${JSON.stringify(name)} breaks the naming rules (1-64 of a-z, 0-9 and "-", no leading, trailing or double hyphen)`,
    );
  else if (name !== dir.slice(dir.lastIndexOf('/') + 1))
    tree.problems.push(`${where}: "name" ${JSON.stringify(name)} must equal its folder's name`);
  if (typeof description !== 'string' || description.trim() === '')
    tree.problems.push(`${where}: "description" missing`);
  return tree.problems.length > before ? undefined : outcome.frontmatter;
}

/** The direct children of each directory at or under a skill's root, by directory URI. */
function directoriesOf(tree: Tree, skills: readonly SkillEntry[]): Map<string, DirectoryChild[]> {
  const roots = skills.map((s) => decodeURIComponentPath(s.uri.slice(SKILL_SCHEME.length, -'/SKILL.md'.length)));
  const inSkill = (dir: string) => roots.some((r) => dir === r || dir.startsWith(`${r}/`));
  const out = new Map<string, DirectoryChild[]>();
  for (const dir of tree.dirs.filter(inSkill)) out.set(uriOfPath(dir), []);
  const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
  const add = (path: string, mimeType: string) =>
    out
      .get(uriOfPath(parentOf(path)))
      ?.push({ uri: uriOfPath(path), name: path.slice(path.lastIndexOf('/') + 1), mimeType });
  for (const dir of tree.dirs) if (dir !== '' && inSkill(dir) && inSkill(parentOf(dir))) add(dir, DIRECTORY_MIME_TYPE);
  for (const path of tree.files.keys()) add(path, mimeTypeOf(path));
  for (const children of out.values()) children.sort((a, b) => (a.uri < b.uri ? -1 : 1));
  return out;
}

function decodeURIComponentPath(path: string): string {
  return path.split('/').map(decodeURIComponent).join('/');
}

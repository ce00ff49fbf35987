import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SkillCatalog, SkillEntry, SkillFile } from './skill-catalog';
import { SKILL_LIMITS, SkillLimits } from './skills.constants';
import {
  checkedFrontmatter,
  directoriesOf,
  joinPath as join,
  prepareSkillFile,
  skillEntryOf,
  uriOfPath,
} from './skill-files';

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
  return new SkillCatalog(skills, contents, directoriesOf(tree.dirs, tree.files.keys(), skills), scopes);
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
  const frontmatter = checkedFrontmatter(skillMd, dir, files[paths.indexOf(skillMd)], (p) => tree.problems.push(p));
  return frontmatter ? skillEntryOf(dir, files, frontmatter) : undefined;
}

/** The file at `path`, read and prepared once (a nested skill's files belong to the enclosing skill too). */
function fileAt(root: string, path: string, contents: Map<string, SkillFile>): SkillFile {
  const known = contents.get(uriOfPath(path));
  if (known) return known;
  const file = prepareSkillFile(path, readFileSync(resolve(root, path)));
  contents.set(file.uri, file);
  return file;
}

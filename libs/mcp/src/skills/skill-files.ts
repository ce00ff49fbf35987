import { createHash } from 'node:crypto';
import { readFrontmatter } from './skill-frontmatter';
import { DirectoryChild, SkillEntry, SkillFile } from './skill-catalog';
import { DIRECTORY_MIME_TYPE, SKILL_NAME, SKILL_SCHEME, isTextType, mimeTypeOf } from './skills.constants';

// What a folder skill and a computed skill share once their bytes are known: the same file preparation, the same
// frontmatter rules, the same manifest and directory listing, so both reach the wire alike.

/** `a` joined to `b` with `/`; `b` alone when `a` is the root (''). @internal */
export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** `skill://` and the path's segments, each percent-encoded: the one spelling looked up. @internal */
export function uriOfPath(path: string): string {
  return SKILL_SCHEME + path.split('/').map(encodeURIComponent).join('/');
}

/** The file at `path`, prepared once: digest and size, its text for UTF-8 text types, its read content. @internal */
export function prepareSkillFile(path: string, bytes: Buffer): SkillFile {
  const uri = uriOfPath(path);
  const mimeType = mimeTypeOf(path);
  const text = isTextType(mimeType) ? utf8(bytes) : undefined;
  return {
    uri,
    mimeType,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
    ...(text === undefined ? {} : { text }),
    content: text === undefined ? { uri, mimeType, blob: bytes.toString('base64') } : { uri, mimeType, text },
  };
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The frontmatter of the SKILL.md of the skill in `dir` when it follows the Agent Skills rules (a YAML mapping, a
 * `name` by the naming rules equal to the folder's name, a `description`); each broken rule passed to `problem`,
 * prefixed with `where`. @internal
 */
export function checkedFrontmatter(
  where: string,
  dir: string,
  skillMd: SkillFile,
  problem: (message: string) => void,
): Record<string, unknown> | undefined {
  if (skillMd.text === undefined) {
    problem(`${where}: frontmatter unparseable: the file is not UTF-8 text`);
    return undefined;
  }
  const outcome = readFrontmatter(skillMd.text);
  if ('problem' in outcome) {
    problem(`${where}: ${outcome.problem}`);
    return undefined;
  }
  const { name, description } = outcome.frontmatter;
  let ok = true;
  const fail = (message: string) => {
    problem(`${where}: ${message}`);
    ok = false;
  };
  if (typeof name !== 'string' || name === '') fail('"name" missing');
  else if (!SKILL_NAME.test(name))
    fail(
      `"name" ${JSON.stringify(name)} breaks the naming rules (1-64 of a-z, 0-9 and "-", no leading, trailing or double hyphen)`,
    );
  else if (name !== dir.slice(dir.lastIndexOf('/') + 1))
    fail(`"name" ${JSON.stringify(name)} must equal its folder's name`);
  if (typeof description !== 'string' || description.trim() === '') fail('"description" missing');
  return ok ? outcome.frontmatter : undefined;
}

/** The `Skill` entry of the skill in `dir`: its SKILL.md first in the manifest, then the rest by URI. @internal */
export function skillEntryOf(
  dir: string,
  files: readonly SkillFile[],
  frontmatter: Record<string, unknown>,
): SkillEntry {
  const uri = uriOfPath(joinPath(dir, 'SKILL.md'));
  const resources = files
    .map((f) => ({ uri: f.uri, digest: f.digest, size: f.size }))
    .sort((a, b) => (a.uri === uri ? -1 : b.uri === uri ? 1 : a.uri < b.uri ? -1 : 1));
  return { uri, frontmatter, resources };
}

/** The folder (path under `skill://`) of the skill whose SKILL.md is at `uri`. @internal */
export function skillDirOf(uri: string): string {
  return uri.slice(SKILL_SCHEME.length, -'/SKILL.md'.length).split('/').map(decodeURIComponent).join('/');
}

/**
 * The direct children of each directory at or under a skill's folder, by directory URI: `dirs` and `files` are paths
 * (with `/`), `skills` the entries served. Folders above a skill (an organising prefix) are not listed. @internal
 */
export function directoriesOf(
  dirs: readonly string[],
  files: Iterable<string>,
  skills: readonly SkillEntry[],
): Map<string, DirectoryChild[]> {
  const roots = skills.map((s) => skillDirOf(s.uri));
  const inSkill = (dir: string) => roots.some((r) => dir === r || dir.startsWith(`${r}/`));
  const out = new Map<string, DirectoryChild[]>();
  for (const dir of dirs.filter(inSkill)) out.set(uriOfPath(dir), []);
  const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
  const add = (path: string, mimeType: string) =>
    out
      .get(uriOfPath(parentOf(path)))
      ?.push({ uri: uriOfPath(path), name: path.slice(path.lastIndexOf('/') + 1), mimeType });
  for (const dir of dirs) if (dir !== '' && inSkill(dir) && inSkill(parentOf(dir))) add(dir, DIRECTORY_MIME_TYPE);
  for (const path of files) add(path, mimeTypeOf(path));
  for (const children of out.values()) children.sort((a, b) => (a.uri < b.uri ? -1 : 1));
  return out;
}

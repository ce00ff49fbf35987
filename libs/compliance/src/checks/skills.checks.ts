import { createHash } from 'node:crypto';
import { Check, CheckContext, fail, notApplicable, pass } from '../check-context';
import { StandardVersion } from '../compliance.types';
import { evidence } from '../http-probe';
import { counted } from '../counted';
import { Listed, listAll } from './catalogue';

/** The Skills extension's identifier (SEP-2640, docs/skills.md). */
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The most SKILL.md files one run reads: enough for any catalogue a reviewer reads, bounded for a hostile one. */
const MAX_READS = 50;

/** One manifest entry, read loosely (any server's). */
interface ManifestFile {
  uri?: unknown;
  digest?: unknown;
  size?: unknown;
}

/** What is wrong with one listed skill's entry, or its SKILL.md's manifest entry when the entry is whole. */
function entryProblem(skill: Listed): string | { file: ManifestFile; uri: string } {
  const uri = typeof skill.uri === 'string' ? skill.uri : undefined;
  if (!uri?.endsWith('/SKILL.md')) return `an entry whose uri is not a skill's SKILL.md: ${JSON.stringify(skill.uri)}`;
  if (typeof skill.frontmatter !== 'object' || skill.frontmatter === null) return `${uri}: no frontmatter object`;
  if (!Array.isArray(skill.resources)) return `${uri}: no resources[] manifest`;
  const files = skill.resources as ManifestFile[];
  const bad = files.find(
    (f) => typeof f?.uri !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(String(f.digest)) || typeof f.size !== 'number',
  );
  if (bad) return `${uri}: a manifest entry without uri, sha256 digest or size: ${JSON.stringify(bad)}`;
  const own = files.find((f) => f.uri === uri);
  return own ? { file: own, uri } : `${uri}: its manifest does not list its own SKILL.md`;
}

/** The bytes of a `resources/read` content item (`text` as UTF-8, `blob` as base64), or undefined. */
function bytesOf(content: Record<string, unknown> | undefined): Buffer | undefined {
  if (typeof content?.text === 'string') return Buffer.from(content.text, 'utf8');
  if (typeof content?.blob === 'string') return Buffer.from(content.blob, 'base64');
  return undefined;
}

/** Reads one SKILL.md and checks it against its manifest entry: the problem, or undefined when it verifies. */
async function verifyRead(
  ctx: CheckContext,
  standard: StandardVersion,
  uri: string,
  file: ManifestFile,
): Promise<string | undefined> {
  const read = await ctx.request(standard, 'resources/read', { uri }, uri);
  const contents = read.body?.result?.contents as Record<string, unknown>[] | undefined;
  const bytes = bytesOf(Array.isArray(contents) ? contents.find((c) => c?.uri === uri) : undefined);
  if (!bytes) return `${uri} cannot be read: ${evidence(read, read.body?.error ?? 'no text or blob content')}`;
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (bytes.length !== file.size) return `${uri}: ${bytes.length} bytes read, the manifest says ${String(file.size)}`;
  if (digest !== file.digest) return `${uri}: its content does not match the manifest's digest ${String(file.digest)}`;
  return undefined;
}

/**
 * The Skills extension, when the server declares it (docs/skills.md): `skills/list` answers an entry per skill with a
 * complete manifest (a `sha256:` digest and a size for each file, its `SKILL.md` included), and every listed
 * `SKILL.md` reads back (`resources/read`) with those bytes. Not applicable without the extension, or with no skill
 * listed to this caller.
 */
export const SKILLS_CHECKS: Record<string, Check> = {
  'ext.skills': async (ctx, standard) => {
    const declared = (await ctx.capabilities(standard)).extensions?.[SKILLS_EXTENSION];
    if (!declared) return notApplicable(`the \`${SKILLS_EXTENSION}\` extension is not declared`);
    const { items, answer } = await listAll(ctx, standard, 'skills/list', 'skills');
    if (!items) return fail(`skills/list: ${evidence(answer, answer.body?.error ?? 'no skills[]')}`);
    const listed = evidence(answer, counted(items.length, 'skill'));
    if (!items.length) return notApplicable('the extension is declared, and no skill is listed to this caller', listed);
    const problems: string[] = [];
    let verified = 0;
    for (const skill of items.slice(0, MAX_READS)) {
      const entry = entryProblem(skill);
      const problem = typeof entry === 'string' ? entry : await verifyRead(ctx, standard, entry.uri, entry.file);
      if (problem) problems.push(problem);
      else verified++;
    }
    const seen = `${listed}; ${counted(verified, 'SKILL.md', 'SKILL.md files')} read back, matching digest and size`;
    const more = items.length > MAX_READS ? [`only the first ${MAX_READS} skills read`] : [];
    return problems.length ? fail(seen, ...problems.slice(0, 10)) : pass(seen, ...more);
  },
};

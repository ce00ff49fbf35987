import { DeprecationRecord, McpContract } from './contract.types';
import { addedOptionalInputs, inputNarrowing, outputLoss } from './schema-narrowing';

/** What `contract:check` found: breaking changes and other problems fail the check; notes do not. */
export interface ContractVerdict {
  problems: string[];
  notes: string[];
}

/** What the check needs besides the two contracts. */
export interface CheckContext {
  /** Today (YYYY-MM-DD). */
  today: string;
  /** The app's CHANGELOG.md text ('' when it has none). */
  changelog: string;
}

interface Item {
  key: string;
  label: string;
  description?: string;
}

const semver = (v: string): [number, number, number] => {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
};

/** The support deadline in a `[DEPRECATED ... YYYY-MM-DD ...]` mark at the start of a description. */
export function deprecationMark(description: string | undefined): { removal?: string } | undefined {
  const m = /^\s*\[DEPRECATED\b([^\]]*)\]/i.exec(description ?? '');
  if (!m) return undefined;
  return { removal: /(\d{4}-\d{2}-\d{2})/.exec(m[1])?.[1] };
}

/** Every item of a contract with its key (`tool:<name>`, ...) and how messages name it. */
export function itemsOf(c: McpContract): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const t of c.tools)
    items.set(`tool:${t.name}`, { key: t.name, label: `tool "${t.name}"`, description: t.description });
  for (const p of c.prompts)
    items.set(`prompt:${p.name}`, { key: p.name, label: `prompt "${p.name}"`, description: p.description });
  for (const r of c.resources)
    items.set(`resource:${r.uri}`, { key: r.uri, label: `resource "${r.uri}"`, description: r.description });
  for (const t of c.resourceTemplates) {
    items.set(`template:${t.uriTemplate}`, {
      key: t.uriTemplate,
      label: `resource template "${t.uriTemplate}"`,
      description: t.description,
    });
  }
  // A skill is named by its URI; the CHANGELOG line of a new one names the skill (its frontmatter `name`).
  for (const k of c.skills ?? [])
    items.set(`skill:${k.uri}`, { key: k.name, label: `skill "${k.uri}"`, description: k.description });
  return items;
}

/**
 * The deprecation records to commit with `current`: kept from `previous` for items still marked, new ones
 * for marks seen for the first time (this version, today).
 */
export function recordDeprecations(
  current: McpContract,
  previous: McpContract | undefined,
  today: string,
): Record<string, DeprecationRecord> {
  const records: Record<string, DeprecationRecord> = {};
  for (const [id, item] of itemsOf(current)) {
    const mark = deprecationMark(item.description);
    if (!mark?.removal) continue;
    const earlier = previous?.deprecations[id];
    records[id] = earlier
      ? { ...earlier, removal: mark.removal }
      : { since: current.server.version, date: today, removal: mark.removal };
  }
  return records;
}

const addMonths = (day: string, months: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/**
 * Whether §17.2's window (docs/compliance.md#s17) is over for a removed item: the deadline passed, 2 minor versions and
 * 3 months since.
 */
function windowProblem(rec: DeprecationRecord, version: string, today: string): string | undefined {
  const [smaj, smin] = semver(rec.since);
  const [maj, min] = semver(version);
  const minors = maj > smaj ? Infinity : min - smin;
  const reasons: string[] = [];
  if (rec.removal > today) reasons.push(`its support deadline ${rec.removal} has not passed`);
  if (addMonths(rec.date, 3) > today) reasons.push(`3 months since ${rec.date} have not passed`);
  if (minors < 2) reasons.push(`2 minor versions since ${rec.since} have not passed (now ${version})`);
  return reasons.length ? reasons.join(', ') : undefined;
}

/**
 * Compares the committed contract with the code's (corporate standard §17, see docs/compliance.md#s17). Breaking
 * changes (a removed or renamed item, a narrowed input, a new required argument, a removed output field) fail
 * unless the major version was bumped, or, for a removal, the item was deprecated as §17.2 (docs/compliance.md#s17)
 * requires and its window is over. Additions need a minor bump and a CHANGELOG line naming them. A skill is an item
 * like a tool (added: minor; removed: breaking); a kept skill whose files changed is a note, not a problem.
 */
export function checkContract(committed: McpContract, current: McpContract, ctx: CheckContext): ContractVerdict {
  const found = findings(committed, current, ctx);
  const before = itemsOf(committed);
  const after = itemsOf(current);
  removals(before, after, committed, current.server.version, ctx.today, found);
  additions(before, after, found);
  changedTools(committed, current, found);
  changedPrompts(committed, current, found);
  changedMimeTypes(committed, current, found);
  changedSkills(committed, current, found);
  return { problems: found.problems, notes: found.notes };
}

/** A check's findings so far; `breaking` and `addition` word a change by the version bump it came with. */
interface Findings extends ContractVerdict {
  majorBump: boolean;
  /** `<committed> -> <current>`, as messages quote it. */
  versions: string;
  breaking(message: string): void;
  addition(label: string, name: string): void;
}

function findings(committed: McpContract, current: McpContract, ctx: CheckContext): Findings {
  const problems: string[] = [];
  const notes: string[] = [];
  const [cmaj, cmin] = semver(committed.server.version);
  const [nmaj, nmin] = semver(current.server.version);
  const majorBump = nmaj > cmaj;
  const minorBump = majorBump || (nmaj === cmaj && nmin > cmin);
  const versions = `${committed.server.version} -> ${current.server.version}`;
  return {
    problems,
    notes,
    majorBump,
    versions,
    breaking: (message) =>
      majorBump
        ? notes.push(`${message} (allowed: major version bump ${versions})`)
        : problems.push(`${message}: a breaking change needs a major version bump (${versions})`),
    addition: (label, name) => {
      const reasons: string[] = [];
      if (!minorBump) reasons.push(`a minor version bump (${versions})`);
      if (!ctx.changelog.includes(name)) reasons.push(`a CHANGELOG.md line naming "${name}"`);
      if (reasons.length) problems.push(`${label} was added: an addition needs ${reasons.join(' and ')}`);
      else notes.push(`${label} was added`);
    },
  };
}

/**
 * Items gone from the code: allowed by a major bump, or once their §17.2 deprecation window (docs/compliance.md#s17) is
 * over.
 */
function removals(
  before: Map<string, Item>,
  after: Map<string, Item>,
  committed: McpContract,
  version: string,
  today: string,
  { problems, notes, majorBump, versions }: Findings,
): void {
  for (const [id, item] of before) {
    if (after.has(id)) continue;
    const rec = committed.deprecations[id];
    if (majorBump) notes.push(`${item.label} was removed (allowed: major version bump ${versions})`);
    else if (!rec)
      problems.push(
        `${item.label} was removed or renamed: deprecate it first (§17.2: a "[DEPRECATED until YYYY-MM-DD]" mark, recorded with npm run contract) or bump the major version`,
      );
    else {
      const why = windowProblem(rec, version, today);
      if (why) problems.push(`${item.label} was removed before its deprecation window ended: ${why}`);
      else
        notes.push(
          `${item.label} was removed after its deprecation window (deprecated in ${rec.since} on ${rec.date})`,
        );
    }
  }
}

/** New items, and deprecation marks without a deadline on any item of the code. */
function additions(before: Map<string, Item>, after: Map<string, Item>, found: Findings): void {
  for (const [id, item] of after) {
    const mark = deprecationMark(item.description);
    if (mark && !mark.removal)
      found.problems.push(`${item.label} is marked [DEPRECATED] without a support deadline (YYYY-MM-DD)`);
    if (before.has(id)) continue;
    found.addition(item.label, item.key);
  }
}

/** A kept tool's input may only widen and its output only grow; a new optional input is an addition. */
function changedTools(committed: McpContract, current: McpContract, { breaking, addition }: Findings): void {
  const tools = new Map(committed.tools.map((t) => [t.name, t]));
  for (const tool of current.tools) {
    const old = tools.get(tool.name);
    if (!old) continue;
    for (const change of inputNarrowing(old.inputSchema, tool.inputSchema)) breaking(`tool "${tool.name}": ${change}`);
    for (const change of outputLoss(old.outputSchema, tool.outputSchema)) breaking(`tool "${tool.name}": ${change}`);
    for (const field of addedOptionalInputs(old.inputSchema, tool.inputSchema))
      addition(`tool "${tool.name}": optional input "${field}"`, tool.name);
  }
}

/** A kept prompt may not lose an argument, gain a required one, or make one required. */
function changedPrompts(committed: McpContract, current: McpContract, { breaking }: Findings): void {
  const prompts = new Map(committed.prompts.map((p) => [p.name, p]));
  for (const prompt of current.prompts) {
    const old = prompts.get(prompt.name);
    if (!old) continue;
    const was = new Map((old.arguments ?? []).map((a) => [a.name, a]));
    const now = new Map((prompt.arguments ?? []).map((a) => [a.name, a]));
    for (const name of was.keys())
      if (!now.has(name)) breaking(`prompt "${prompt.name}": argument "${name}" was removed`);
    for (const [name, arg] of now) {
      if (!arg.required) continue;
      if (!was.has(name)) breaking(`prompt "${prompt.name}": new required argument "${name}"`);
      else if (!was.get(name)!.required) breaking(`prompt "${prompt.name}": argument "${name}" became required`);
    }
  }
}

/** A kept resource or template may not change its MIME type (clients parse by it). */
function changedMimeTypes(committed: McpContract, current: McpContract, { breaking }: Findings): void {
  const mime = (list: { mimeType?: string }[], key: (x: never) => string) =>
    new Map(list.map((x) => [key(x as never), x.mimeType]));
  const resourceMime = mime(committed.resources, (r: { uri: string }) => r.uri);
  for (const r of current.resources) {
    if (resourceMime.has(r.uri) && resourceMime.get(r.uri) !== r.mimeType)
      breaking(`resource "${r.uri}": mimeType changed to ${r.mimeType}`);
  }
  const templateMime = mime(committed.resourceTemplates, (t: { uriTemplate: string }) => t.uriTemplate);
  for (const t of current.resourceTemplates) {
    if (templateMime.has(t.uriTemplate) && templateMime.get(t.uriTemplate) !== t.mimeType) {
      breaking(`resource template "${t.uriTemplate}": mimeType changed to ${t.mimeType}`);
    }
  }
}

/**
 * A kept skill whose files changed (a digest, a file added or removed): recorded, not breaking. A skill's text is
 * guidance read by a model, not an interface a client parses; its manifest digests tell clients it changed.
 */
function changedSkills(committed: McpContract, current: McpContract, { notes }: Findings): void {
  const skills = new Map((committed.skills ?? []).map((k) => [k.uri, k]));
  for (const skill of current.skills ?? []) {
    const old = skills.get(skill.uri);
    if (!old) continue;
    const was = new Map(old.files.map((f) => [f.uri, f.digest]));
    const now = new Map(skill.files.map((f) => [f.uri, f.digest]));
    for (const [uri, digest] of now) {
      if (!was.has(uri)) notes.push(`skill "${skill.uri}": file "${uri}" was added (${digest})`);
      else if (was.get(uri) !== digest)
        notes.push(`skill "${skill.uri}": file "${uri}" changed (${was.get(uri)} -> ${digest})`);
    }
    for (const uri of was.keys()) if (!now.has(uri)) notes.push(`skill "${skill.uri}": file "${uri}" was removed`);
  }
}

import { Schema } from './contract.types';

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];

const types = (s: Schema): string[] | undefined =>
  s.type === undefined ? undefined : ([] as string[]).concat(s.type as string | string[]);
const props = (s: Schema): Record<string, Schema> => (s.properties as Record<string, Schema> | undefined) ?? {};
const required = (s: Schema): string[] => (s.required as string[] | undefined) ?? [];

/**
 * How an input schema now accepts less than before (a caller's valid call of yesterday is refused today),
 * one sentence per change, naming the path. Covers what the DTO → JSON Schema generator produces: types,
 * enums and const, string/number/array bounds, patterns and formats, required and additional properties,
 * nested objects and array items.
 */
export function inputNarrowing(before: Schema, after: Schema, path = ''): string[] {
  const at = (p: string) => (p ? `input property "${p}"` : 'input');
  const out: string[] = [];
  const tb = types(before);
  const ta = types(after);
  if (ta && (!tb || tb.some((t) => !ta.includes(t) && !(t === 'integer' && ta.includes('number'))))) {
    out.push(`${at(path)} type narrowed from ${tb ? tb.join('|') : 'any'} to ${ta.join('|')}`);
  }
  if (Array.isArray(after.enum)) {
    const removed = Array.isArray(before.enum)
      ? before.enum.filter((v) => !(after.enum as unknown[]).some((w) => JSON.stringify(w) === JSON.stringify(v)))
      : undefined;
    if (!removed) out.push(`${at(path)} is now restricted to an enum`);
    else if (removed.length) out.push(`${at(path)} enum lost ${removed.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if ('const' in after && JSON.stringify(after.const) !== JSON.stringify(before.const)) {
    out.push(`${at(path)} is now restricted to a constant`);
  }
  for (const key of LOWER_BOUNDS) {
    const a = after[key] as number | undefined;
    const b = before[key] as number | undefined;
    if (a !== undefined && (b === undefined || a > b)) out.push(`${at(path)} ${key} raised to ${a}`);
  }
  for (const key of UPPER_BOUNDS) {
    const a = after[key] as number | undefined;
    const b = before[key] as number | undefined;
    if (a !== undefined && (b === undefined || a < b)) out.push(`${at(path)} ${key} lowered to ${a}`);
  }
  for (const key of ['pattern', 'format', 'multipleOf']) {
    if (after[key] !== undefined && after[key] !== before[key]) out.push(`${at(path)} has a new ${key}`);
  }
  if (after.additionalProperties === false && before.additionalProperties !== false) {
    out.push(`${at(path)} no longer accepts additional properties`);
  }
  const pb = props(before);
  const pa = props(after);
  for (const name of Object.keys(pb)) {
    const child = path ? `${path}.${name}` : name;
    if (!(name in pa)) {
      if (after.additionalProperties === false) out.push(`${at(child)} was removed`);
      continue;
    }
    out.push(...inputNarrowing(pb[name], pa[name], child));
  }
  for (const name of required(after)) {
    if (required(before).includes(name)) continue;
    const child = path ? `${path}.${name}` : name;
    out.push(name in pb ? `${at(child)} became required` : `new required ${at(child)}`);
  }
  if (before.items && after.items) {
    out.push(...inputNarrowing(before.items as Schema, after.items as Schema, `${path}[]`));
  }
  return out;
}

/** What a caller relying on yesterday's structured output no longer gets, one sentence per change. */
export function outputLoss(before: Schema | undefined, after: Schema | undefined, path = ''): string[] {
  const at = (p: string) => (p ? `output field "${p}"` : 'output schema');
  if (!before) return [];
  if (!after) return [`${at(path)} was removed`];
  const out: string[] = [];
  const tb = types(before);
  const ta = types(after);
  if (tb && ta && tb.join('|') !== ta.join('|'))
    out.push(`${at(path)} type changed from ${tb.join('|')} to ${ta.join('|')}`);
  const pa = props(after);
  for (const [name, schema] of Object.entries(props(before))) {
    const child = path ? `${path}.${name}` : name;
    if (!(name in pa)) out.push(`${at(child)} was removed`);
    else {
      out.push(...outputLoss(schema, pa[name], child));
      if (required(before).includes(name) && !required(after).includes(name))
        out.push(`${at(child)} is no longer always present`);
    }
  }
  return out;
}

/**
 * Input properties added without being required: a minor change (§17.1 "adding an optional field",
 * docs/compliance.md#s17).
 */
export function addedOptionalInputs(before: Schema, after: Schema): string[] {
  const pb = props(before);
  return Object.keys(props(after)).filter((name) => !(name in pb) && !required(after).includes(name));
}

/** What replaces a masked value in logs. */
export const MASK = '[REDACTED]';

/**
 * Names that are masked wherever they appear, marked or not: a forgotten `sensitive: true` on a
 * password field must not put the password into the logs.
 */
const SECRET_NAME = /pass(word|phrase)?|secret|token|authorization|cookie|api[-_]?key|credential|private[-_]?key/i;
const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 6;
const MAX_KEYS = 50;
const MAX_KEY_LENGTH = 64;

/**
 * The property paths of a JSON Schema that hold sensitive values: those with `writeOnly: true`
 * (the 2020-12 keyword for values such as passwords; `@McpField({ sensitive: true })` emits it) or
 * `format: "password"`. Array items are `*`. Computed once per tool at boot.
 * @internal
 */
export function sensitivePaths(schema: unknown): Set<string> {
  const root = schema as Record<string, unknown> | undefined;
  const defs = { ...(root?.definitions as object), ...(root?.$defs as object) } as Record<string, unknown>;
  const out = new Set<string>();
  const walk = (node: unknown, prefix: string, depth: number, seen: Set<unknown>): void => {
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH || seen.has(node)) return;
    const s = node as Record<string, unknown>;
    if (prefix && (s.writeOnly === true || s.format === 'password')) out.add(prefix);
    const inner = new Set(seen).add(node);
    const at = (key: string) => (prefix ? `${prefix}.${key}` : key);
    // Nested DTOs are emitted as local references (#/$defs/Name): follow them, once per path.
    if (typeof s.$ref === 'string') {
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(s.$ref)?.[1];
      if (name) walk(defs[name], prefix, depth + 1, inner);
    }
    if (s.properties && typeof s.properties === 'object') {
      for (const [key, sub] of Object.entries(s.properties)) walk(sub, at(key), depth + 1, inner);
    }
    // Maps and tuples: any key or position counts as `*`.
    for (const sub of [
      s.additionalProperties,
      s.items,
      ...Object.values((s.patternProperties as object) ?? {}),
      ...((s.prefixItems as unknown[]) ?? []),
    ]) {
      walk(sub, at('*'), depth + 1, inner);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (Array.isArray(s[key])) for (const sub of s[key] as unknown[]) walk(sub, prefix, depth + 1, inner);
    }
  };
  walk(schema, '', 0, new Set());
  return out;
}

/**
 * A log-safe copy of call arguments: sensitive paths and secret-looking names masked, long strings
 * and arrays cut, depth bounded. The arguments themselves are never modified.
 * @internal
 */
export function maskArguments(
  value: unknown,
  sensitive: ReadonlySet<string>,
  path = '',
  depth = 0,
  wildcard = '',
): unknown {
  if (
    path &&
    (sensitive.has(path) ||
      (wildcard && sensitive.has(wildcard)) ||
      SECRET_NAME.test(path.slice(path.lastIndexOf('.') + 1)))
  )
    return MASK;
  if (typeof value === 'string')
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…(${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[…]';
  const any = path ? `${path}.*` : '*';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => maskArguments(v, sensitive, any, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `…(${value.length} items)`] : items;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, MAX_KEYS)) {
    const shown = key.length > MAX_KEY_LENGTH ? `${key.slice(0, MAX_KEY_LENGTH)}…` : key;
    const masked = maskArguments(
      (value as Record<string, unknown>)[key],
      sensitive,
      path ? `${path}.${key}` : key,
      depth + 1,
      any,
    );
    // defineProperty: a "__proto__" key stays a plain property of the copy instead of replacing its prototype.
    Object.defineProperty(out, shown, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  if (keys.length > MAX_KEYS) out['…'] = `${keys.length - MAX_KEYS} more keys`;
  return out;
}

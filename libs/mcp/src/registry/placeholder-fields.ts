/**
 * Where a published definition still carries a generator's `TODO:` placeholder, by field. Pure and self-contained:
 * the registry's boot check and the contract gate (libs/contract, built on its own) both use it.
 */

/** What `nest g mcp-tool | mcp-prompt | mcp-resource | mcp-app` writes where a person must write the real sentence. */
export const PLACEHOLDER = /\bTODO:/;

/** The lines `renderToolSafety` appends to a mutating tool's description, by the `mutation` field each shows. */
const RENDERED_LINES: [prefix: string, field: string][] = [
  ['Side effects: ', 'mutation.sideEffects'],
  ['Idempotency: ', 'mutation.idempotency'],
  ['Retry: ', 'mutation.retry'],
  ['Timeout: ', 'mutation.timeoutBehavior'],
  ['Audit event: ', 'mutation.audit'],
  ['Approval: ', 'mutation.approval'],
];

/**
 * The fields of `definition` (a tool, prompt, resource or template as listed) that carry a placeholder, named as
 * their author wrote them (`description`, `mutation.retry`, `input "text"`, `argument "topic"`). `safetyMetaKey`
 * is the `_meta` key under which a registry entry keeps its `mutation` fields (lists do not carry it).
 */
export function placeholderFields(
  definition: Record<string, unknown>,
  tool: boolean,
  safetyMetaKey?: string,
): string[] {
  const fields = new Set<string>();
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (typeof value === 'string') {
      if (PLACEHOLDER.test(value)) {
        for (const field of fieldsOf(path, value, definition, tool, safetyMetaKey)) fields.add(field);
      }
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    }
  };
  visit(definition, []);
  return [...fields];
}

function fieldsOf(
  path: (string | number)[],
  text: string,
  definition: Record<string, unknown>,
  tool: boolean,
  safetyMetaKey: string | undefined,
): string[] {
  const [head, ...rest] = path;
  if (head === 'description' && tool) {
    // A mutating tool's description ends with the lines rendered from `mutation`: name the field, not the text.
    return text
      .split('\n')
      .filter((line) => PLACEHOLDER.test(line))
      .map((line) => RENDERED_LINES.find(([prefix]) => line.startsWith(prefix))?.[1] ?? 'description');
  }
  if (head === '_meta' && safetyMetaKey !== undefined && rest[0] === safetyMetaKey) {
    return [`mutation.${String(rest[1])}`];
  }
  if (head === 'inputSchema' || head === 'outputSchema') {
    const property = rest.flatMap((p, i) => (rest[i - 1] === 'properties' ? [String(p)] : p === 'items' ? ['[]'] : []));
    const side = head === 'inputSchema' ? 'input' : 'output';
    return [property.length ? `${side} "${property.join('.').replace(/\.\[\]/g, '[]')}"` : side];
  }
  if (head === 'arguments' && typeof rest[0] === 'number') {
    const argument = (definition.arguments as { name?: string }[])[rest[0]];
    return [`argument "${argument?.name ?? rest[0]}"`];
  }
  return [path.join('.')];
}

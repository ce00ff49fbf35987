import { RegistryViolations } from './registry-rules';
import { TOOL_SAFETY_META_KEY } from './tool-description.renderer';

/** What `nest g mcp-tool | mcp-prompt | mcp-resource` writes where a person must write the real sentence. */
const PLACEHOLDER = /\bTODO:/;

/** The lines `renderToolSafety` appends to a mutating tool's description, by the `mutation` field each shows. */
const RENDERED_LINES: [prefix: string, field: string][] = [
  ['Side effects: ', 'mutation.sideEffects'],
  ['Idempotency: ', 'mutation.idempotency'],
  ['Retry: ', 'mutation.retry'],
  ['Timeout: ', 'mutation.timeoutBehavior'],
  ['Audit event: ', 'mutation.audit'],
  ['Approval: ', 'mutation.approval'],
];

/** One published catalogue entry, as the registry holds it. */
interface Published {
  definition: Record<string, unknown>;
  className?: string;
  methodName?: string;
}

/** The catalogue to check: the registry's maps, by kind. */
export interface PublishedCatalogue {
  tools: ReadonlyMap<string, Published>;
  prompts: ReadonlyMap<string, Published>;
  resources: ReadonlyMap<string, Published>;
  templates: ReadonlyMap<string, Published>;
}

/**
 * Refuses, when NODE_ENV=production, every tool, prompt and resource whose published definition (what the lists
 * send: descriptions, titles, annotations, the safety metadata, argument and schema descriptions) still carries
 * a generator's `TODO:` placeholder, one problem per entry naming the fields; clients would read them as the
 * tool's real risk sentences. Elsewhere each is a warning, so a freshly generated provider runs in development
 * and in its spec.
 * @internal
 */
export function checkPlaceholders(
  catalogue: PublishedCatalogue,
  violations: RegistryViolations,
  warn: (message: string) => void,
  nodeEnv = process.env.NODE_ENV,
): void {
  const kinds: [string, ReadonlyMap<string, Published>][] = [
    ['tool', catalogue.tools],
    ['prompt', catalogue.prompts],
    ['resource', catalogue.resources],
    ['resource template', catalogue.templates],
  ];
  for (const [kind, entries] of kinds) {
    for (const [key, entry] of entries) {
      const fields = placeholderFields(entry.definition, kind === 'tool');
      if (!fields.length) continue;
      const where = `${entry.className ?? 'McpRegistry'}.${entry.methodName ?? 'add'}`;
      const message =
        `${kind} "${key}" publishes "TODO:" placeholders in ${fields.join(', ')}: ` +
        `replace each with the real sentence (the generator left them for you to write)`;
      if (nodeEnv === 'production') violations.add(where, message);
      else warn(`${where}: ${message} (refused when NODE_ENV=production)`);
    }
  }
}

/** Where a definition carries a placeholder, named as its author wrote it (`description`, `mutation.retry`, ...). */
function placeholderFields(definition: Record<string, unknown>, tool: boolean): string[] {
  const fields = new Set<string>();
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (typeof value === 'string') {
      if (PLACEHOLDER.test(value)) for (const field of fieldsOf(path, value, definition, tool)) fields.add(field);
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    }
  };
  visit(definition, []);
  return [...fields];
}

function fieldsOf(path: (string | number)[], text: string, definition: Record<string, unknown>, tool: boolean) {
  const [head, ...rest] = path;
  if (head === 'description' && tool) {
    // A mutating tool's description ends with the lines rendered from `mutation`: name the field, not the text.
    return text
      .split('\n')
      .filter((line) => PLACEHOLDER.test(line))
      .map((line) => RENDERED_LINES.find(([prefix]) => line.startsWith(prefix))?.[1] ?? 'description');
  }
  if (head === '_meta' && rest[0] === TOOL_SAFETY_META_KEY) return [`mutation.${String(rest[1])}`];
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

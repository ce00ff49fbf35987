import { McpContract } from './contract.types';

/** What `nest g mcp-tool | mcp-prompt | mcp-resource` writes where a person must write the real sentence. */
const PLACEHOLDER = /\bTODO:/;

/**
 * The lines the platform appends to a mutating tool's description, by the `mutation` field each shows (the
 * contract sees the rendered description only; libs/mcp's tool-description.renderer.ts writes these lines).
 */
const RENDERED_LINES: [prefix: string, field: string][] = [
  ['Side effects: ', 'mutation.sideEffects'],
  ['Idempotency: ', 'mutation.idempotency'],
  ['Retry: ', 'mutation.retry'],
  ['Timeout: ', 'mutation.timeoutBehavior'],
  ['Audit event: ', 'mutation.audit'],
  ['Approval: ', 'mutation.approval'],
];

/**
 * Every tool, prompt, resource and template of a contract that still publishes a generator's `TODO:` placeholder
 * (in a title, description, annotation, argument or schema description), one sentence per item naming the fields
 * and the fix. `npm run contract` refuses to record such a contract and `contract:check` fails on it: clients
 * would read the placeholders as the tool's real risk sentences.
 */
export function placeholderProblems(contract: McpContract): string[] {
  const items: [label: string, item: object, tool: boolean][] = [
    ...contract.tools.map((t): [string, object, boolean] => [`tool "${t.name}"`, t, true]),
    ...contract.prompts.map((p): [string, object, boolean] => [`prompt "${p.name}"`, p, false]),
    ...contract.resources.map((r): [string, object, boolean] => [`resource "${r.uri}"`, r, false]),
    ...contract.resourceTemplates.map((t): [string, object, boolean] => [
      `resource template "${t.uriTemplate}"`,
      t,
      false,
    ]),
  ];
  const problems: string[] = [];
  for (const [label, item, tool] of items) {
    const fields = placeholderFields(item as Record<string, unknown>, tool);
    if (!fields.length) continue;
    problems.push(
      `${label} publishes "TODO:" placeholders in ${fields.join(', ')}: ` +
        'replace each with the real sentence (the generator left them for you to write)',
    );
  }
  return problems;
}

/** Where an item carries a placeholder, named as its author wrote it (`description`, `mutation.retry`, ...). */
function placeholderFields(item: Record<string, unknown>, tool: boolean): string[] {
  const fields = new Set<string>();
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (typeof value === 'string') {
      if (PLACEHOLDER.test(value)) for (const field of fieldsOf(path, value, item, tool)) fields.add(field);
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
  };
  visit(item, []);
  return [...fields];
}

function fieldsOf(path: (string | number)[], text: string, item: Record<string, unknown>, tool: boolean): string[] {
  const [head, ...rest] = path;
  if (head === 'description' && tool) {
    return text
      .split('\n')
      .filter((line) => PLACEHOLDER.test(line))
      .map((line) => RENDERED_LINES.find(([prefix]) => line.startsWith(prefix))?.[1] ?? 'description');
  }
  if (head === 'inputSchema' || head === 'outputSchema') {
    const property = rest.flatMap((p, i) => (rest[i - 1] === 'properties' ? [String(p)] : p === 'items' ? ['[]'] : []));
    const side = head === 'inputSchema' ? 'input' : 'output';
    return [property.length ? `${side} "${property.join('.').replace(/\.\[\]/g, '[]')}"` : side];
  }
  if (head === 'arguments' && typeof rest[0] === 'number') {
    const argument = (item.arguments as { name?: string }[])[rest[0]];
    return [`argument "${argument?.name ?? rest[0]}"`];
  }
  return [path.join('.')];
}

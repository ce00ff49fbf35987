import { McpContract } from './contract.types';
// The same rules the platform applies at boot (a pure file of the platform, compiled into this tool).
import { placeholderFields } from '@app/mcp/tooling';

/**
 * Every tool, prompt, resource, template and skill of a contract that still publishes a generator's `TODO:` placeholder
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
    // A skill's frontmatter as recorded (name, description): a generated SKILL.md starts as "TODO:" sentences.
    ...(contract.skills ?? []).map((k): [string, object, boolean] => [
      `skill "${k.uri}"`,
      { name: k.name, description: k.description },
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

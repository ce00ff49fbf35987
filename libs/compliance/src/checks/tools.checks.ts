import { Check, CheckContext, fail, notApplicable, pass } from '../check-context';
import { Exchange, evidence } from '../http-probe';
import { StandardVersion } from '../compliance.types';
import { listAll } from './catalogue';
import { counted } from '../counted';

/** The same rule the platform enforces at boot: lower snake_case, a letter first, at most 64 characters. */
const SNAKE_CASE = /^[a-z][a-z0-9_]{0,63}$/;

export interface ListedTool {
  name?: unknown;
  description?: unknown;
  inputSchema?: { $schema?: unknown } & Record<string, unknown>;
}

/**
 * Every page of `tools/list` in the era of the checklist, or no tools with the answer when there are none; listed once
 * per run and shared by the checks (`tools.deterministic` lists again itself).
 */
export function listTools(
  ctx: CheckContext,
  standard: StandardVersion,
): Promise<{ tools?: ListedTool[]; answer: Exchange }> {
  return ctx.once(`tools/list ${standard}`, async () => {
    const { items, answer } = await listAll(ctx, standard, 'tools/list', 'tools');
    return { ...(items ? { tools: items as ListedTool[] } : {}), answer };
  });
}

/** A check over the listed tools: `bad` names what is wrong with one tool, or undefined. */
const eachTool =
  (bad: (tool: ListedTool) => string | undefined): Check =>
  async (ctx, standard) => {
    const { tools, answer } = await listTools(ctx, standard);
    if (!tools) return notApplicable(`${evidence(answer, answer.body?.error ?? '')}: no tools listed`);
    const problems = tools.map(bad).filter((p): p is string => p !== undefined);
    const seen = evidence(answer, counted(tools.length, 'tool'));
    return problems.length ? fail(seen, ...problems.slice(0, 10)) : pass(seen);
  };

/** Tools, as `tools/list` shows them. */
export const TOOLS_CHECKS: Record<string, Check> = {
  'tools.fields': eachTool((t) => {
    const missing = ['name', 'description', 'inputSchema'].filter((f) =>
      f === 'inputSchema'
        ? typeof t.inputSchema !== 'object' || t.inputSchema === null
        : typeof t[f as 'name'] !== 'string',
    );
    return missing.length ? `tool ${JSON.stringify(t.name)} lacks ${missing.join(', ')}` : undefined;
  }),
  'tools.names': eachTool((t) =>
    typeof t.name === 'string' && SNAKE_CASE.test(t.name)
      ? undefined
      : `tool name ${JSON.stringify(t.name)} is not snake_case`,
  ),
  'tools.schema-draft': eachTool((t) => {
    const declared = t.inputSchema?.$schema;
    // No $schema means the MCP default, JSON Schema 2020-12; one that names another draft must be deliberate.
    return declared === undefined || typeof declared === 'string'
      ? undefined
      : `tool ${JSON.stringify(t.name)}: $schema is not a string`;
  }),
};

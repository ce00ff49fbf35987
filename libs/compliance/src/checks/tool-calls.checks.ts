import {
  Check,
  CheckContext,
  fail,
  manual,
  notApplicable,
  pass,
  passInPart,
  passOnNegativeProbe,
} from '../check-context';
import { StandardVersion, Verdict } from '../compliance.types';
import { Exchange, evidence } from '../http-probe';
import { errorCode, listAll } from './catalogue';
import { documentsRetry, documentsTimeout } from './documented-terms';
import { ListedTool, listTools } from './tools.checks';
import { counted } from '../counted';

type Annotated = ListedTool & { annotations?: Record<string, unknown>; _meta?: Record<string, unknown> };

/** A tool that changes something: not marked read-only (MCP's default for a tool without annotations). */
const mutating = (t: Annotated) => t.annotations?.readOnlyHint !== true;
/**
 * A tool whose changes are seen outside the call: the corporate safety metadata says so when the server publishes
 * it (`_meta["corporate/tool-safety"].external`); otherwise MCP's `openWorldHint`, true unless said otherwise.
 */
const external = (t: Annotated) => {
  const safety = t._meta?.['corporate/tool-safety'] as { external?: unknown } | undefined;
  return (
    mutating(t) && (typeof safety?.external === 'boolean' ? safety.external : t.annotations?.openWorldHint !== false)
  );
};

/** The most tools one run sends a wrong argument to: enough for any team's own tools, bounded for a hostile list. */
const MAX_PROBED_TOOLS = 25;

/** A wrong-argument call to one listed tool, and its answer. */
export interface InvalidCall {
  tool: string;
  field: string;
  answer: Exchange;
}

/**
 * Calls that must fail validation, one per listed tool marked read-only (so a server that does not validate changes
 * nothing) that has a typed property: a value of the wrong type for it. Every such tool is called, the team's own as
 * well as any sample, up to {@link MAX_PROBED_TOOLS}; sent once per era, and the argument, error and log checks all
 * read the answers.
 */
export function invalidCalls(
  ctx: CheckContext,
  standard: StandardVersion,
): Promise<{ calls: InvalidCall[]; notCalled: string[] }> {
  return ctx.once(`invalid calls ${standard}`, async () => {
    const { tools } = await listTools(ctx, standard);
    const calls: InvalidCall[] = [];
    const notCalled: string[] = [];
    for (const t of (tools ?? []) as Annotated[]) {
      if (typeof t.name !== 'string') continue;
      const properties = (t.inputSchema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
      // A property mirrored in a header (`x-mcp-header`) is left alone: in 2026-07-28 the call would also need the
      // header, and its refusal would say nothing of the validation.
      const typed = Object.entries(properties).find(
        ([, p]) => ['string', 'integer', 'number'].includes(String(p?.type)) && p?.['x-mcp-header'] === undefined,
      );
      if (mutating(t) || !typed || calls.length >= MAX_PROBED_TOOLS) {
        notCalled.push(t.name);
        continue;
      }
      const [field, schema] = typed;
      const wrong = schema?.type === 'string' ? 12345 : 'not-a-number';
      const answer = await ctx.request(standard, 'tools/call', { name: t.name, arguments: { [field]: wrong } }, t.name);
      calls.push({ tool: t.name, field, answer });
    }
    return { calls, notCalled };
  });
}

/** The first of {@link invalidCalls}, or undefined when no tool can be called safely. */
export async function invalidCall(ctx: CheckContext, standard: StandardVersion): Promise<InvalidCall | undefined> {
  return (await invalidCalls(ctx, standard)).calls[0];
}

/** What the report says of the listed tools that were not called (they may change something, or take no value). */
const notCalledLine = (notCalled: string[]) =>
  notCalled.length
    ? [
        `not called (not read-only, or no typed argument outside a header): ${notCalled.slice(0, 10).join(', ')}${notCalled.length > 10 ? ', …' : ''}`,
      ]
    : [];

/** Not applicable, with the list's answer, when the server lists no tools in this era. */
async function noTools(ctx: CheckContext, standard: StandardVersion): Promise<Verdict | undefined> {
  const { tools, answer } = await listTools(ctx, standard);
  return tools?.length
    ? undefined
    : notApplicable(`${evidence(answer, answer.body?.error ?? 'no tools')}: no tools listed`);
}

const NO_SAFE_TOOL = 'no read-only tool with a typed argument to send a wrong value to safely; the reviewer judges it';

/** How a wrong argument came back: an `isError` result, a `-32602`, or neither; undefined when it is right. */
function validationProblem(standard: StandardVersion, call: InvalidCall): string | undefined {
  const { field, answer } = call;
  const result = answer.body?.result;
  const text = JSON.stringify(result?.content ?? answer.body?.error ?? '');
  const named = text.includes(field);
  if (result?.isError === true) return named ? undefined : `the error does not name the field ${field}`;
  // Older clients (v1.2, and Annex D of v2.0) may get a -32602 with the field in error.data.
  if (standard === '1.2' && errorCode(answer) === -32602) return undefined;
  return standard === '1.2' ? 'neither an isError result nor -32602' : 'not an isError result';
}

const callLine = ({ tool, field, answer }: InvalidCall) =>
  `tools/call ${tool} with ${field} of the wrong type; ${evidence(answer, answer.body?.result ?? answer.body?.error)}`;

/** Every probed tool refuses its wrong argument as the era asks: each one's line, a failure for each that does not. */
function validationVerdict(standard: StandardVersion, probed: { calls: InvalidCall[]; notCalled: string[] }): Verdict {
  const lines = probed.calls.map(callLine);
  const problems = probed.calls.flatMap((c) => {
    const problem = validationProblem(standard, c);
    return problem ? [`${c.tool}: ${problem}`] : [];
  });
  if (problems.length) return fail(...lines, ...problems);
  return pass(...lines, ...notCalledLine(probed.notCalled));
}

/** Calls, and what the tool list says about side effects (nothing is called that is not marked read-only). */
export const TOOL_CALLS_CHECKS: Record<string, Check> = {
  'life.tools': async (ctx, standard) => {
    if (!(await ctx.capabilities(standard)).tools) return notApplicable('no `tools` capability declared');
    const { tools, answer } = await listTools(ctx, standard);
    const call = await ctx.request(
      standard,
      'tools/call',
      { name: 'compliance_no_such_tool', arguments: {} },
      'compliance_no_such_tool',
    );
    const seen = [
      evidence(answer, tools ? counted(tools.length, 'tool') : answer.body?.error),
      `an unknown tool; ${evidence(call, call.body?.error ?? call.body?.result)}`,
    ];
    const answered = errorCode(call) === -32602 || call.body?.result?.isError === true;
    if (!tools || !answered) return fail(...seen);
    // The listed tools called with a wrong argument: tools/call reaches them, though none runs.
    const { calls } = await invalidCalls(ctx, standard);
    const reached = calls.map((c) => `${c.tool} with a wrong argument; ${evidence(c.answer)}`);
    return passOnNegativeProbe(
      'a tools/call that runs a tool: the command calls no tool with valid arguments, so nothing can change',
      ...seen,
      ...reached,
    );
  },
  'tools.arguments': async (ctx, standard) => {
    const none = await noTools(ctx, standard);
    if (none) return none;
    const probed = await invalidCalls(ctx, standard);
    return probed.calls.length ? validationVerdict(standard, probed) : manual(NO_SAFE_TOOL);
  },
  'tools.is-error': async (ctx, standard) => isErrorCheck(ctx, standard),
  'errors.is-error': async (ctx, standard) => isErrorCheck(ctx, standard),
  'tools.deterministic': async (ctx, standard) => {
    const none = await noTools(ctx, standard);
    if (none) return none;
    // Two fresh listings, one after the other (not the shared one).
    const [a, b] = [
      await listAll(ctx, standard, 'tools/list', 'tools'),
      await listAll(ctx, standard, 'tools/list', 'tools'),
    ];
    const same = JSON.stringify(a.items) === JSON.stringify(b.items);
    const line = `tools/list twice: ${same ? 'the same tools, in the same order' : 'the answers differ'}`;
    const listed = a.items ?? [];
    const withOutput = listed.filter((t) => t.outputSchema).length;
    return same
      ? passInPart(
          'that each tool’s result has a fixed format',
          line,
          `${withOutput} of ${counted(listed.length, 'tool')} ${withOutput === 1 ? 'declares' : 'declare'} an outputSchema`,
        )
      : fail(line);
  },
  'tools.side-effects': async (ctx, standard) => {
    const none = await noTools(ctx, standard);
    if (none) return none;
    const { tools } = await listTools(ctx, standard);
    const changing = ((tools ?? []) as Annotated[]).filter(mutating);
    if (!changing.length) return notApplicable('every tool is marked read-only');
    const bad = changing.flatMap((t) => {
      const d = String(t.description ?? '');
      const missing = [
        ...(/side[ -]effects?/i.test(d) ? [] : ['side effects']),
        ...(/\brisk\b/i.test(d) || t.annotations?.riskLevel ? [] : ['risk level']),
      ];
      return missing.length ? [`${String(t.name)}: its description does not state ${missing.join(' or ')}`] : [];
    });
    const seen = `${counted(changing.length, 'tool')} not marked read-only`;
    return bad.length ? fail(seen, ...bad.slice(0, 10)) : passInPart('that what they state is accurate', seen);
  },
  'tools.external-effects': async (ctx, standard) => {
    const none = await noTools(ctx, standard);
    if (none) return none;
    const { tools } = await listTools(ctx, standard);
    const reaching = ((tools ?? []) as Annotated[]).filter(external);
    if (!reaching.length)
      return notApplicable(
        'no tool changes anything outside the call (read-only, external: false or openWorldHint: false)',
      );
    const terms: [string, (text: string) => boolean][] = [
      ['idempotency', (d) => /idempoten/i.test(d)],
      ['retry', documentsRetry],
      ['timeout', documentsTimeout],
      ['audit', (d) => /\baudit/i.test(d)],
      ['approval', (d) => /approv|confirm/i.test(d)],
    ];
    const bad = reaching.flatMap((t) => {
      const missing = terms.filter(([, says]) => !says(String(t.description ?? ''))).map(([w]) => w);
      return missing.length ? [`${String(t.name)}: no ${missing.join(', ')}`] : [];
    });
    const seen = `${counted(reaching.length, 'tool')} with external side effects`;
    return bad.length ? fail(seen, ...bad.slice(0, 10)) : passInPart('that what they state is accurate', seen);
  },
};

/** Tool errors come back as `isError` results: seen on a wrong argument, which 2025-11-25 makes a tool error. */
async function isErrorCheck(ctx: CheckContext, standard: StandardVersion): Promise<Verdict> {
  const none = await noTools(ctx, standard);
  if (none) return none;
  const { calls, notCalled } = await invalidCalls(ctx, standard);
  if (!calls.length) return manual(NO_SAFE_TOOL);
  const lines = calls.map(callLine);
  if (calls.every((c) => c.answer.body?.result?.isError === true))
    return passInPart(
      'that business errors of each tool come back the same way',
      ...lines,
      ...notCalledLine(notCalled),
    );
  // v1.2 lets a wrong argument be -32602 (Appendix B), so it says nothing of how business errors come back.
  if (
    standard === '1.2' &&
    calls.every((c) => c.answer.body?.result?.isError === true || errorCode(c.answer) === -32602)
  )
    return manual(
      ...lines,
      'a wrong argument is -32602 here, as v1.2 allows; a business error cannot be provoked black box',
    );
  return fail(...lines);
}

import { Check, CheckContext, fail, manual, notApplicable, pass, passInPart } from '../check-context';
import { StandardVersion, Verdict } from '../compliance.types';
import { Exchange, evidence } from '../http-probe';
import { errorCode, listAll } from './catalogue';
import { ListedTool, listTools } from './tools.checks';

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

/**
 * A call that must fail validation, sent only to a tool marked read-only (so a server that does not validate
 * changes nothing): a value of the wrong type for one of its typed properties. Sent once per era; the argument, the
 * error and the log checks all read its answer.
 */
export function invalidCall(
  ctx: CheckContext,
  standard: StandardVersion,
): Promise<{ tool: string; field: string; answer: Exchange } | undefined> {
  return ctx.once(`invalid call ${standard}`, async () => {
    const { tools } = await listTools(ctx, standard);
    for (const t of (tools ?? []) as Annotated[]) {
      if (mutating(t) || typeof t.name !== 'string') continue;
      const properties = (t.inputSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
      const typed = Object.entries(properties).find(([, p]) =>
        ['string', 'integer', 'number'].includes(String(p?.type)),
      );
      if (!typed) continue;
      const [field, schema] = typed;
      const wrong = schema.type === 'string' ? 12345 : 'not-a-number';
      const answer = await ctx.request(standard, 'tools/call', { name: t.name, arguments: { [field]: wrong } }, t.name);
      return { tool: t.name, field, answer };
    }
    return undefined;
  });
}

/** Not applicable, with the list's answer, when the server lists no tools in this era. */
async function noTools(ctx: CheckContext, standard: StandardVersion): Promise<Verdict | undefined> {
  const { tools, answer } = await listTools(ctx, standard);
  return tools?.length
    ? undefined
    : notApplicable(`${evidence(answer, answer.body?.error ?? 'no tools')}: no tools listed`);
}

const NO_SAFE_TOOL = 'no read-only tool with a typed argument to send a wrong value to safely; the reviewer judges it';

/** How a wrong argument came back: an `isError` result, a `-32602`, or neither. */
function validationVerdict(
  standard: StandardVersion,
  probe: NonNullable<Awaited<ReturnType<typeof invalidCall>>>,
): Verdict {
  const { tool, field, answer } = probe;
  const result = answer.body?.result;
  const text = JSON.stringify(result?.content ?? answer.body?.error ?? '');
  const line = `tools/call ${tool} with ${field} of the wrong type; ${evidence(answer, result ?? answer.body?.error)}`;
  const named = text.includes(field);
  if (result?.isError === true) return named ? pass(line) : fail(line, `the error does not name the field ${field}`);
  // Older clients (v1.2, and Annex D of v2.0) may get a -32602 with the field in error.data.
  if (standard === '1.2' && errorCode(answer) === -32602) return pass(line);
  return fail(line, standard === '1.2' ? 'neither an isError result nor -32602' : 'not an isError result');
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
      evidence(answer, tools ? `${tools.length} tools` : answer.body?.error),
      `an unknown tool; ${evidence(call, call.body?.error ?? call.body?.result)}`,
    ];
    const answered = errorCode(call) === -32602 || call.body?.result?.isError === true;
    return tools && answered ? pass(...seen) : fail(...seen);
  },
  'tools.arguments': async (ctx, standard) => {
    const none = await noTools(ctx, standard);
    if (none) return none;
    const probe = await invalidCall(ctx, standard);
    return probe ? validationVerdict(standard, probe) : manual(NO_SAFE_TOOL);
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
          `${withOutput} of ${listed.length} tools declare an outputSchema`,
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
    const seen = `${changing.length} tools not marked read-only`;
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
    const terms: [string, RegExp][] = [
      ['idempotency', /idempoten/i],
      ['retry', /\bretr(y|ies)/i],
      ['timeout', /time[ -]?out/i],
      ['audit', /\baudit/i],
      ['approval', /approv|confirm/i],
    ];
    const bad = reaching.flatMap((t) => {
      const missing = terms.filter(([, re]) => !re.test(String(t.description ?? ''))).map(([w]) => w);
      return missing.length ? [`${String(t.name)}: no ${missing.join(', ')}`] : [];
    });
    const seen = `${reaching.length} tools with external side effects`;
    return bad.length ? fail(seen, ...bad.slice(0, 10)) : passInPart('that what they state is accurate', seen);
  },
};

/** Tool errors come back as `isError` results: seen on a wrong argument, which 2025-11-25 makes a tool error. */
async function isErrorCheck(ctx: CheckContext, standard: StandardVersion): Promise<Verdict> {
  const none = await noTools(ctx, standard);
  if (none) return none;
  const probe = await invalidCall(ctx, standard);
  if (!probe) return manual(NO_SAFE_TOOL);
  const line = `tools/call ${probe.tool} with ${probe.field} of the wrong type; ${evidence(probe.answer, probe.answer.body?.result ?? probe.answer.body?.error)}`;
  if (probe.answer.body?.result?.isError === true)
    return passInPart('that business errors of each tool come back the same way', line);
  // v1.2 lets a wrong argument be -32602 (Appendix B), so it says nothing of how business errors come back.
  if (standard === '1.2' && errorCode(probe.answer) === -32602)
    return manual(
      line,
      'a wrong argument is -32602 here, as v1.2 allows; a business error cannot be provoked black box',
    );
  return fail(line);
}

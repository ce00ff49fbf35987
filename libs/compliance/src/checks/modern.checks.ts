import { Check, CheckContext, fail, pass, passInPart } from '../check-context';
import { StandardVersion } from '../compliance.types';
import { Exchange, evidence } from '../http-probe';
import { errorCode, listAll } from './catalogue';
import { readDirFile } from './static.checks';

/** Appendix B's codes: JSON-RPC's, the company's grandfathered ones, and (v2.0) the specification's -32020…-32022. */
const CODES: Record<StandardVersion, number[]> = {
  '1.2': [-32700, -32600, -32601, -32602, -32603, -32000, -32002, -32003, -32004, -32005, -32006, -32007],
  '2.0': [
    -32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022, -32000, -32003, -32004, -32005, -32006, -32007,
  ],
};

/** The errors every server can be made to answer without side effects, in the checklist's era. */
async function errorProbes(ctx: CheckContext, standard: StandardVersion): Promise<Exchange[]> {
  const version = standard === '1.2' ? '2025-11-25' : '2026-07-28';
  const probes = [
    ctx.probe.postRaw('{"jsonrpc": "2.0", "id": 1, "method": ', { 'mcp-protocol-version': version }),
    ctx.request(standard, 'compliance/no-such-method'),
    ctx.request(standard, 'tools/call', { name: 'compliance_no_such_tool', arguments: {} }, 'compliance_no_such_tool'),
    ctx.request(standard, 'resources/read', { uri: 'compliance://no-such-resource' }, 'compliance://no-such-resource'),
  ];
  if (standard === '2.0') probes.push(ctx.modernPost('server/discover', {}, { version: '1999-01-01' }));
  return Promise.all(probes);
}

/** The 2026-07-28 wire (v2.0 only) and the codes of both eras. */
export const MODERN_CHECKS: Record<string, Check> = {
  'spec.headers': async (ctx) => {
    const { items: tools } = await listAll(ctx, '2.0', 'tools/list', 'tools');
    const tool = typeof tools?.[0]?.name === 'string' ? tools[0].name : 'compliance_probe';
    const call = { name: tool, arguments: {} };
    const mismatches: [string, Promise<Exchange>][] = [
      [
        'Mcp-Method: prompts/list on a tools/list',
        ctx.modernPost('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } }),
      ],
      [
        `Mcp-Name: other_name on a tools/call of ${tool}`,
        ctx.modernPost('tools/call', call, { headers: { 'mcp-name': 'other_name' } }),
      ],
      ['no Mcp-Name on a tools/call', ctx.modernPost('tools/call', call)],
      [
        'MCP-Protocol-Version: 2025-11-25 with 2026-07-28 in _meta',
        ctx.modernPost('tools/list', {}, { headers: { 'mcp-protocol-version': '2025-11-25' } }),
      ],
    ];
    const lines: string[] = [];
    let refusedAll = true;
    for (const [what, sent] of mismatches) {
      const answer = await sent;
      refusedAll &&= answer.status === 400 && errorCode(answer) === -32020;
      lines.push(`${what}; ${evidence(answer, answer.body?.error ?? answer.body?.result ?? answer.text)}`);
    }
    return refusedAll ? pass(...lines) : fail(...lines, 'each must be 400 with -32020 (HeaderMismatch)');
  },
  'spec.result-type': async (ctx) => {
    const caps = await ctx.capabilities('2.0');
    const asked: [string, Promise<Exchange>, boolean][] = [['server/discover', ctx.discover(), false]];
    for (const kind of ['tools', 'prompts', 'resources'] as const)
      if (caps[kind]) asked.push([`${kind}/list`, ctx.modernPost(`${kind}/list`), true]);
    const lines: string[] = [];
    let ok = true;
    for (const [method, sent, cached] of asked) {
      const result = (await sent).body?.result ?? {};
      const missing = ['resultType', ...(cached ? ['ttlMs', 'cacheScope'] : [])].filter((k) => result[k] === undefined);
      ok &&= missing.length === 0;
      lines.push(
        `${method}: ${missing.length ? `no ${missing.join(', ')}` : `resultType ${JSON.stringify(result.resultType)}${cached ? `, ttlMs ${result.ttlMs}, cacheScope ${JSON.stringify(result.cacheScope)}` : ''}`}`,
      );
    }
    return ok ? pass(...lines) : fail(...lines);
  },
  'spec.legacy-clients': async (ctx) => {
    const { init } = await ctx.legacy();
    if (init.body?.result?.protocolVersion)
      return pass(`a 2025-11-25 initialize; ${evidence(init, { protocolVersion: init.body.result.protocolVersion })}`);
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    if (readme && /modern[- ]only/i.test(readme))
      return passInPart(
        'that the README’s reason is sound',
        `${evidence(init)}; README.md says the server is modern-only`,
      );
    return fail(
      `a 2025-11-25 initialize; ${evidence(init, init.body?.error ?? init.text)}`,
      'and no README saying the server is modern-only (--dir)',
    );
  },
  'errors.codes': async (ctx, standard) => {
    const allowed = CODES[standard];
    const answers = await errorProbes(ctx, standard);
    const lines = answers.map((a) => evidence(a, errorCode(a) ?? 'no error'));
    const foreign = answers.map(errorCode).filter((c): c is number => c !== undefined && !allowed.includes(c));
    const legacyOnly = standard === '2.0' && answers.some((a) => errorCode(a) === -32002);
    if (foreign.length || legacyOnly)
      return fail(
        ...lines,
        `${[...new Set(foreign)].join(', ')} not in Appendix B${legacyOnly ? ' (-32002 is legacy-only)' : ''}`,
      );
    return passInPart('the codes of the server’s own errors (auth refusals are judged by their HTTP status)', ...lines);
  },
};

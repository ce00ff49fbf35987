import { Check, CheckContext, fail, pass } from '../check-context';
import { Exchange, evidence } from '../http-probe';

/** What gives a stack trace or a source location away in an error text. */
const LEAK = /\n\s+at\s|\bat\s+\S+\s+\(|\.(?:ts|js|mjs|cjs):\d+/;

/** A malformed message (not JSON): every server must answer it, and how it does shows its error path. */
const malformed = (ctx: CheckContext): Promise<Exchange> =>
  ctx.probe.postRaw('{"jsonrpc": "2.0", "id": 1, "method": ', { 'mcp-protocol-version': '2025-11-25' });

/** Errors and limits, as a client sees them. */
export const ERRORS_CHECKS: Record<string, Check> = {
  'errors.format': async (ctx) => {
    const answer = await malformed(ctx);
    const error = answer.body?.error;
    const shaped =
      answer.body?.jsonrpc === '2.0' && typeof error?.code === 'number' && typeof error?.message === 'string';
    const line = `a body that is not JSON; ${evidence(answer, answer.body ?? answer.text)}`;
    return shaped && error.code === -32700 ? pass(line) : fail(line);
  },
  'errors.no-leaks': async (ctx) => {
    const answer = await malformed(ctx);
    const line = `a body that is not JSON; ${evidence(answer, answer.text)}`;
    return LEAK.test(answer.text) ? fail(line) : pass(line);
  },
};

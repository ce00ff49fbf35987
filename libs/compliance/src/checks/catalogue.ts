import { CheckContext } from '../check-context';
import { StandardVersion } from '../compliance.types';
import { Exchange } from '../http-probe';

/** One listed tool, prompt, resource or template, read loosely (any server's). */
export type Listed = Record<string, unknown>;

/**
 * Every page of a list method (`tools/list`, `prompts/list`, …) in the era of the checklist, or no items with the
 * answer when the server does not list them (an error, or no array under `key`).
 */
export async function listAll(
  ctx: CheckContext,
  standard: StandardVersion,
  method: string,
  key: string,
): Promise<{ items?: Listed[]; answer: Exchange }> {
  const items: Listed[] = [];
  let cursor: string | undefined;
  let answer: Exchange | undefined;
  for (let page = 0; page < 50; page++) {
    answer = await ctx.request(standard, method, cursor ? { cursor } : {});
    const result = answer.body?.result;
    if (!Array.isArray(result?.[key])) return { answer };
    items.push(...(result[key] as Listed[]));
    cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return { items, answer: answer! };
}

/** The JSON-RPC error code of an answer, or undefined. */
export const errorCode = (answer: Exchange): number | undefined =>
  typeof answer.body?.error?.code === 'number' ? (answer.body.error.code as number) : undefined;

/** `serverInfo` as the era states it: in `initialize`'s result, or in the `_meta` of `server/discover`'s. */
export async function serverInfo(
  ctx: CheckContext,
  standard: StandardVersion,
): Promise<{ info?: Record<string, unknown>; answer: Exchange }> {
  const answer = standard === '1.2' ? (await ctx.legacy()).init : await ctx.discover();
  const result = answer.body?.result;
  const info = standard === '1.2' ? result?.serverInfo : result?._meta?.['io.modelcontextprotocol/serverInfo'];
  return { ...(info && typeof info === 'object' ? { info: info as Record<string, unknown> } : {}), answer };
}

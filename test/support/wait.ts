/** Polls `predicate` every 20 ms until it holds; throws when it has not within `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The text of the first content block of a tool result (fails loudly when there is none). */
export function firstText(result: { content?: unknown }): string {
  const block = (result.content as { type?: string; text?: string }[] | undefined)?.[0];
  if (!block || block.type !== 'text' || typeof block.text !== 'string')
    throw new Error(`no text content in ${JSON.stringify(result)}`);
  return block.text;
}

/** Time the example's `export_tickets` needs end to end: 25 tickets in 5 batches of 200 ms. */
export const EXPORT_DURATION_MS = 1000;

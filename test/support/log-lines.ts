/** The JSON lines of a captured log stream (anything else, such as the "listening on" line, is skipped). */
export function jsonLines(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        return undefined;
      }
    })
    .filter((l): l is Record<string, any> => l !== undefined);
}

/** Waits until `predicate` holds for some line of `read()` (logs are written asynchronously). */
export async function waitForLine(
  read: () => string,
  predicate: (line: Record<string, any>) => boolean,
  timeoutMs = 5_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = jsonLines(read()).find(predicate);
    if (hit) return hit;
    if (Date.now() > deadline)
      throw new Error(`no log line matched within ${timeoutMs} ms; got:\n${read().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

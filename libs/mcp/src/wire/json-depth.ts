/** The deepest nesting of arrays and objects a message may have by default (`limits.maxJsonDepth`). */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;

/**
 * True when JSON text nests arrays and objects deeper than `maxDepth`, found by one scan of the text before it is
 * parsed: `JSON.parse` and every later walk of a 400,000-level value stall the event loop (0.1-0.5 s each), while the
 * scan costs about as much as reading the text. Strings are skipped with `indexOf`, so long strings cost little.
 * Invalid JSON is left to `JSON.parse`: the scan only counts brackets outside strings.
 * @internal
 */
export function nestingExceeds(text: string, maxDepth: number): boolean {
  // Each level needs at least one opening bracket: shorter texts cannot be too deep.
  if (text.length <= maxDepth) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i + 1);
      if (i < 0) return false;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing a string whose content starts at `from`; -1 when the text ends first. */
function endOfString(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * {@link nestingExceeds} for a value parsed already (a body Express's own JSON parser read): an explicit stack, so a
 * deep value cannot overflow the call stack, and the walk stops at the first level past `maxDepth`.
 * @internal
 */
export function valueNestingExceeds(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

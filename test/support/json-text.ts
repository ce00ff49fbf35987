/*
 * Scans of JSON text for the fuzz oracle (fuzz-oracle.ts) that build no values. A fuzzed body can nest 100,000 levels
 * deep: JSON.parse builds every level (tens of ms for one body), while these walk the characters once and stop early.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when arrays and objects in `text` nest deeper than `limit`, duplicate keys included (a parsed value keeps only
 * the last of them, the text all): strings and their escapes are skipped. Meant for valid JSON; says nothing useful
 * about invalid text.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** The characters JSON allows after a backslash, other than `u`. */
const ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));

/** Where the string opening at `i` ends (just past its closing quote), or -1 when it is not a valid JSON string. */
function stringEnd(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(++i);
      if (e === 0x75) {
        for (let k = 1; k <= 4; k++) if (!isHex(text.charCodeAt(i + k))) return -1;
        i += 4;
      } else if (!ESCAPES.has(e)) return -1;
    }
  }
  return -1;
}

/** Where the digits from `i` end; -1 when there are none. */
function digitsEnd(text: string, i: number): number {
  const from = i;
  while (isDigit(text.charCodeAt(i))) i++;
  return i > from ? i : -1;
}

/** Where the number starting at `i` ends, or -1 when it is not a valid JSON number. */
function numberEnd(text: string, i: number): number {
  if (text.charCodeAt(i) === MINUS) i++;
  i = text.charCodeAt(i) === 0x30 ? i + 1 : digitsEnd(text, i);
  if (i >= 0 && text.charCodeAt(i) === 0x2e) i = digitsEnd(text, i + 1);
  if (i >= 0 && (text.charCodeAt(i) | 0x20) === 0x65) {
    const sign = text.charCodeAt(i + 1);
    i = digitsEnd(text, sign === 0x2b || sign === MINUS ? i + 2 : i + 1);
  }
  return i;
}

/** What comes next: a value, a value or `]`, a key or `}`, a key, or what follows a value. */
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const KEY_OR_CLOSE = 2;
const KEY = 3;
const AFTER_VALUE = 4;
const LITERALS = ['true', 'false', 'null'];

/**
 * Whether `JSON.parse(text)` would succeed (the grammar of ECMA-404, as JSON.parse reads it: four whitespace
 * characters, no trailing commas, no control characters in strings), without building the value: one pass, an
 * explicit stack of what is open, so any depth.
 */
export function isJsonText(text: string): boolean {
  const n = text.length;
  /** Open containers, innermost last (at `depth` - 1): 1 for an object, 0 for an array. */
  const open = new Uint8Array(n);
  let depth = 0;
  let next: number = VALUE;
  let i = 0;
  for (;;) {
    let c = text.charCodeAt(i);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++i);
    if (next === AFTER_VALUE) {
      if (depth === 0) return i === n;
      if (c === COMMA) {
        next = open[depth - 1] === 1 ? KEY : VALUE;
        i++;
        continue;
      }
      // Closes, as many as follow one another (a deep body ends in a long run of them).
      const from = i;
      while (depth > 0 && c === (open[depth - 1] === 1 ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        depth--;
        c = text.charCodeAt(++i);
      }
      if (i === from) return false;
    } else if (next === KEY || next === KEY_OR_CLOSE) {
      if (next === KEY_OR_CLOSE && c === CLOSE_OBJECT) {
        depth--;
        i++;
        next = AFTER_VALUE;
        continue;
      }
      if (c !== QUOTE || (i = stringEnd(text, i)) < 0) return false;
      c = text.charCodeAt(i);
      while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++i);
      if (c !== COLON) return false;
      i++;
      next = VALUE;
    } else if (next === VALUE_OR_CLOSE && c === CLOSE_ARRAY) {
      depth--;
      i++;
      next = AFTER_VALUE;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      // Opening arrays, as many as follow one another (a deep body starts with a long run of them).
      while (c === OPEN_ARRAY) {
        open[depth++] = 0;
        c = text.charCodeAt(++i);
        next = VALUE_OR_CLOSE;
      }
      if (c === OPEN_OBJECT) {
        open[depth++] = 1;
        i++;
        next = KEY_OR_CLOSE;
      }
    } else {
      if (c === QUOTE) i = stringEnd(text, i);
      else if (c === MINUS || isDigit(c)) i = numberEnd(text, i);
      else {
        const literal = LITERALS.find((word) => text.startsWith(word, i));
        i = literal ? i + literal.length : -1;
      }
      if (i < 0) return false;
      next = AFTER_VALUE;
    }
  }
}

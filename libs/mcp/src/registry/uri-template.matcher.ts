import UriTemplate from 'uri-template-lite';

/** A matched URI's variables, decoded; an exploded list (`{/path*}`) is joined with its separator. */
export type UriVariables = Record<string, string>;

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
interface Variable {
  name: string;
  explode: boolean;
  prefix?: number;
}
interface Expression {
  operator: Operator;
  vars: Variable[];
}

/**
 * Instructions of the matching machine. Matching is not done with a RegExp: templates such as `{+list*}` or
 * `{+a}/{+b}/{+c}` make a backtracking regex exponential or cubic in the URI length (a 31-character URI took 18 s).
 */
type Op =
  | { op: 'lit'; text: string }
  | { op: 'unit'; wide: boolean; extra: string } // one URI character of the form's class, or one %XX triplet
  | { op: 'split'; alt: number } // go on at pc + 1 first; if that fails, at alt
  | { op: 'jmp'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'end' };

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
/** C0/C1 controls, line and paragraph separators, bidi controls: they rewrite logs and what a reviewer sees. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
/** A percent-encoded triplet left after decoding: the URI was encoded twice to smuggle a character through. */
const STILL_ENCODED = /%[0-9A-Fa-f]{2}/;
const DOT_SEGMENT = /(^|[/\\])\.{1,2}($|[/\\])/;
/** Rooted (`/x`, `\x`, `\\host`) or drive (`C:`) paths: joined to a base directory, they leave it. */
const ABSOLUTE = /^(?:[/\\]|[A-Za-z]:)/;
const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Matches URIs against an RFC 6570 template with the guarantees a resource handler relies on (docs/authoring.md,
 * `@McpResourceTemplate`). Values are percent-decoded once. No value holds a control or bidi character or a `%XX`
 * left by double encoding, or is `.` or `..`. Simple forms (`{var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}`,
 * `{&var}`) hold no reserved character and no backslash; each item of an exploded list obeys that rule and is
 * non-empty, so `{/path*}` is a relative path without empty or dot segments. `{+var}` and `{#var}` may hold `/`
 * and the other reserved characters but no `.`/`..` segment and are never rooted (`/x`, `\x`, `C:`). Values are
 * checked again after NFKC folding, so fullwidth `．．／` counts as `../`. A URI matches only when expanding the
 * decoded values gives it back exactly. Anything else is no match (the caller answers "resource not found"),
 * never an exception, in time linear in the URI length.
 * @internal
 */
export class UriTemplateMatcher {
  private readonly expressions: Expression[] = [];
  private readonly program: Op[] = [];
  private readonly expander: UriTemplate;
  private variables = 0;

  constructor(readonly template: string) {
    this.expander = new UriTemplate(template);
    let rest = template;
    for (let open = rest.indexOf('{'); open >= 0; open = rest.indexOf('{')) {
      const close = rest.indexOf('}', open);
      if (close < 0) throw new Error('an expression is not closed');
      this.literal(rest.slice(0, open));
      const expression = parseExpression(rest.slice(open + 1, close));
      this.compile(expression, this.variables);
      this.expressions.push(expression);
      this.variables += expression.vars.length;
      rest = rest.slice(close + 1);
    }
    this.literal(rest);
    this.program.push({ op: 'end' });
  }

  /** The variables of `uri`, or null when it does not match (or a value breaks the rules above). */
  match(uri: string): UriVariables | null {
    const slots = this.captures(uri);
    if (!slots) return null;
    const values: UriVariables = {};
    const expandWith: Record<string, string | string[]> = {};
    let index = 0;
    for (const { operator, vars } of this.expressions) {
      for (const v of vars) {
        const [start, end] = [slots[2 * index], slots[2 * index + 1]];
        index++;
        if (start < 0 || end < 0) continue; // absent: RFC 6570 expands an undefined variable to nothing
        let raw = uri.slice(start, end);
        if (operator === ';') raw = raw.replace(/^=/, ''); // `;v` and `;v=x` (see compile)
        const sep = operator === '/' || operator === '.' ? operator : ',';
        const items = (v.explode ? raw.split(sep) : [raw]).map(decode);
        const wide = operator === '+' || operator === '#';
        if (items.some((d) => d === undefined || (v.explode && d === '') || !allowed(wide, d))) return null;
        if (v.prefix !== undefined && (items[0] as string).length > v.prefix) return null;
        values[v.name] = items.join(sep);
        expandWith[v.name] = v.explode ? (items as string[]) : (items[0] as string);
      }
    }
    return this.expander.expand(expandWith) === uri ? values : null;
  }

  private literal(text: string): void {
    if (text) this.program.push({ op: 'lit', text });
  }

  /** Emits `(?:X)?` around what `body` emits. */
  private optional(body: () => void): void {
    const split: Op = { op: 'split', alt: -1 };
    this.program.push(split);
    body();
    split.alt = this.program.length;
  }

  /** Emits the value of variable `index`: slots 2·index and 2·index+1 take its start and end. */
  private value(index: number, unit: Op & { op: 'unit' }, prefix = ''): void {
    this.program.push({ op: 'save', slot: 2 * index });
    if (prefix) this.optional(() => this.literal(prefix));
    const loop = this.program.length;
    this.program.push({ op: 'split', alt: loop + 3 }, unit, { op: 'jmp', to: loop });
    this.program.push({ op: 'save', slot: 2 * index + 1 });
  }

  /** One expression, as RFC 6570 expands it; every variable may be absent. */
  private compile({ operator, vars }: Expression, first: number): void {
    const wide = operator === '+' || operator === '#';
    vars.forEach((v, i) => {
      const extra = !v.explode ? '' : operator === '/' || operator === '.' ? operator : ',';
      const unit = { op: 'unit' as const, wide, extra };
      const slot = first + i;
      switch (operator) {
        case '':
        case '+':
          if (i === 0) this.value(slot, unit);
          else this.optional(() => (this.literal(','), this.value(slot, unit)));
          break;
        case '#':
          this.optional(() => (this.literal(i === 0 ? '#' : ','), this.value(slot, unit)));
          break;
        case '.':
        case '/':
          this.optional(() => (this.literal(operator), this.value(slot, unit)));
          break;
        case ';':
          // An empty value expands as `;v`, so the `=` belongs to the captured text and is stripped in match().
          this.optional(() => (this.literal(`;${v.name}`), this.value(slot, unit, '=')));
          break;
        default: {
          // `?` or `&` before each variable, whichever: the expand-back check in match() keeps the right one.
          const split: Op = { op: 'split', alt: -1 };
          const join: Op = { op: 'jmp', to: -1 };
          this.optional(() => {
            this.program.push(split, { op: 'lit', text: `?${v.name}=` }, join);
            split.alt = this.program.length;
            this.program.push({ op: 'lit', text: `&${v.name}=` });
            join.to = this.program.length;
            this.value(slot, unit);
          });
        }
      }
    });
  }

  /**
   * Runs the program over the whole URI with regex priorities (greedy, first alternative first) and returns the
   * capture slots, or null. A backtracking search that remembers every (instruction, position) it has left
   * without success never explores one twice: at most program length × (URI length + 1) steps.
   */
  private captures(uri: string): number[] | null {
    const width = uri.length + 1;
    const failed = new Uint8Array(this.program.length * width);
    const slots: number[] = new Array(2 * this.variables).fill(-1);
    // Frames of three numbers: [pc, pos, -1] resumes a thread, [-2, slot, old] undoes a save.
    const stack: number[] = [0, 0, -1];
    while (stack.length) {
      const third = stack.pop()!;
      let pos = stack.pop()!;
      let pc = stack.pop()!;
      if (pc === -2) {
        slots[pos] = third;
        continue;
      }
      for (;;) {
        if (failed[pc * width + pos]) break;
        failed[pc * width + pos] = 1;
        const ins = this.program[pc];
        if (ins.op === 'end') {
          if (pos === uri.length) return slots;
          break;
        } else if (ins.op === 'lit') {
          if (!uri.startsWith(ins.text, pos)) break;
          pos += ins.text.length;
          pc++;
        } else if (ins.op === 'unit') {
          const n = unitLength(uri, pos, ins.wide, ins.extra);
          if (!n) break;
          pos += n;
          pc++;
        } else if (ins.op === 'split') {
          stack.push(ins.alt, pos, -1);
          pc++;
        } else if (ins.op === 'jmp') {
          pc = ins.to;
        } else {
          stack.push(-2, ins.slot, slots[ins.slot]);
          slots[ins.slot] = pos;
          pc++;
        }
      }
    }
    return null;
  }
}

/** Length of the URI unit at `pos` a value may hold: 1 for an allowed character, 3 for `%XX`, 0 for none. */
function unitLength(uri: string, pos: number, wide: boolean, extra: string): number {
  const c = uri[pos];
  if (c === undefined) return 0;
  if (c === '%') return HEX.test(uri.slice(pos + 1, pos + 3)) ? 3 : 0;
  return UNRESERVED.test(c) || (wide && RESERVED.test(c)) || c === extra ? 1 : 0;
}

function parseExpression(body: string): Expression {
  const operator = '+#./;?&'.includes(body[0]) ? (body[0] as Operator) : '';
  const vars = body
    .slice(operator ? 1 : 0)
    .split(',')
    .map((spec) => {
      const [, name, explode, prefix] = /^([A-Za-z0-9_.%]+)(\*)?(?::(\d+))?$/.exec(spec) ?? [];
      if (!name) throw new Error(`"${spec}" is not a variable`);
      return { name, explode: explode === '*', prefix: prefix ? Number(prefix) : undefined };
    });
  return { operator, vars };
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // malformed or overlong UTF-8 (%C0%AE), a lone surrogate: no match
  }
}

function allowed(wide: boolean, value: string): boolean {
  const folded = value.normalize('NFKC');
  return obeys(wide, value) && (folded === value || obeys(wide, folded));
}

function obeys(wide: boolean, value: string): boolean {
  if (INVISIBLE.test(value) || STILL_ENCODED.test(value) || value === '.' || value === '..') return false;
  if (wide) return !DOT_SEGMENT.test(value) && !ABSOLUTE.test(value);
  // A backslash is no separator in a URI, but is one to some file APIs.
  return !RESERVED.test(value) && !value.includes('\\');
}

import UriTemplate from 'uri-template-lite';

/** A matched URI's variables, decoded; an exploded list (`{/path*}`) is joined with its separator. */
export type UriVariables = Record<string, string>;

interface Expression {
  operator: '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
  vars: { name: string; explode: boolean; prefix?: number }[];
}

const UNRESERVED = '(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})';
const RESERVED_TOO = "(?:[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})";
/** RFC 3986 reserved characters: a value of a simple form never holds one once decoded. */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A percent-encoded triplet left after decoding: the URI was encoded twice to smuggle a character through. */
const STILL_ENCODED = /%[0-9A-Fa-f]{2}/;
const DOT_SEGMENT = /(^|[/\\])\.{1,2}($|[/\\])/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches URIs against an RFC 6570 template the way a resource handler can rely on (README "Resource templates"):
 * values are percent-decoded once; no value holds a control character, a still-encoded triplet (double
 * encoding) or is a `.`/`..` segment; only `{+var}`, `{#var}` and the segments of `{/var*}` may hold `/` and the
 * other reserved characters (`{+var}` and `{#var}` never a `.`/`..` segment, with `/` or `\` as separator).
 * A URI matches only when expanding the decoded values gives it back exactly, so no variable swallows a
 * separator. Anything else is no match (the caller gets "resource not found"), never an exception.
 * @internal
 */
export class UriTemplateMatcher {
  private readonly expressions: Expression[] = [];
  private readonly pattern: RegExp;
  private readonly expander: UriTemplate;

  constructor(readonly template: string) {
    this.expander = new UriTemplate(template);
    let source = '^';
    let rest = template;
    for (let open = rest.indexOf('{'); open >= 0; open = rest.indexOf('{')) {
      const close = rest.indexOf('}', open);
      if (close < 0) throw new Error('an expression is not closed');
      source += escape(rest.slice(0, open));
      const expression = parseExpression(rest.slice(open + 1, close));
      this.expressions.push(expression);
      source += expressionPattern(expression);
      rest = rest.slice(close + 1);
    }
    this.pattern = new RegExp(`${source}${escape(rest)}$`);
  }

  /** The variables of `uri`, or null when it does not match (or a value breaks the rules above). */
  match(uri: string): UriVariables | null {
    const found = this.pattern.exec(uri);
    if (!found) return null;
    const values: UriVariables = {};
    const expandWith: Record<string, string | string[]> = {};
    let group = 1;
    for (const { operator, vars } of this.expressions) {
      for (const v of vars) {
        const raw = found[group++];
        if (raw === undefined) continue;
        const parts = v.explode ? splitExploded(operator, raw) : [raw];
        const decoded = parts.map(decode);
        if (decoded.some((d) => d === undefined || !allowed(operator, d))) return null;
        if (v.prefix !== undefined && (decoded[0] as string).length > v.prefix) return null;
        const items = decoded as string[];
        values[v.name] = items.join(operator === '/' ? '/' : operator === '.' ? '.' : ',');
        expandWith[v.name] = v.explode ? items : items[0];
      }
    }
    return this.expander.expand(expandWith) === uri ? values : null;
  }
}

function parseExpression(body: string): Expression {
  const operator = '+#./;?&'.includes(body[0]) ? (body[0] as Expression['operator']) : '';
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

/** One capture group per variable; every variable may be absent (RFC 6570 skips undefined values). */
function expressionPattern({ operator, vars }: Expression): string {
  const chars = operator === '+' || operator === '#' ? RESERVED_TOO : UNRESERVED;
  return vars
    .map((v, i) => {
      const value = v.explode
        ? operator === '/' || operator === '.'
          ? `(${chars}*(?:${escape(operator)}${chars}*)*)`
          : `(${chars}*(?:,${chars}*)*)`
        : `(${chars}*)`;
      switch (operator) {
        case '':
        case '+':
          return i === 0 ? value : `(?:,${value})?`;
        case '#':
          return i === 0 ? `(?:#${value})?` : `(?:,${value})?`;
        case '.':
        case '/':
          return `(?:${escape(operator)}${value})?`;
        case ';':
          return `(?:;${escape(v.name)}(?:=${value})?)?`;
        default:
          return `(?:[?&]${escape(v.name)}=${value})?`;
      }
    })
    .join('');
}

function splitExploded(operator: Expression['operator'], raw: string): string[] {
  return raw.split(operator === '/' ? '/' : operator === '.' ? '.' : ',');
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // malformed or overlong UTF-8 (%C0%AE), a lone %: no match
  }
}

function allowed(operator: Expression['operator'], value: string): boolean {
  if (CONTROL.test(value) || STILL_ENCODED.test(value) || value === '.' || value === '..') return false;
  if (operator === '+' || operator === '#') return !DOT_SEGMENT.test(value);
  // A segment of {/var*} is free of reserved characters like any simple value: the list carries the slashes. A
  // backslash is no separator in a URI, but is one to some file APIs.
  return !RESERVED.test(value) && !value.includes('\\');
}

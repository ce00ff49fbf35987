import { JsonSchema } from '../decorators/decorator-options.interface';

/** A tool argument mirrored in an `Mcp-Param-{name}` header (SEP-2243, `x-mcp-header`). @internal */
export interface HeaderParam {
  /** The header's name part, as declared (`Region` for `Mcp-Param-Region`). */
  name: string;
  /** The chain of `properties` keys from the schema root to the argument. */
  path: readonly string[];
  type: 'string' | 'integer' | 'boolean';
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NOT_STATIC = [
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
  'dependentSchemas',
];

/**
 * The `x-mcp-header` annotations of an input schema, checked as the specification requires of a tool definition:
 * a non-empty HTTP token, unique ignoring case, on an `integer`, `string` or `boolean` property reachable from the root
 * through `properties` only. Each problem is reported (the boot then stops) rather than published to clients, which
 * would have to drop the tool.
 * @internal
 */
export function headerParams(schema: JsonSchema, problem: (message: string) => void): HeaderParam[] {
  const found: HeaderParam[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, path: string[], staticPath: boolean): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, path, false));
    const s = node as Record<string, unknown>;
    if ('x-mcp-header' in s) {
      const name = s['x-mcp-header'];
      const where = path.length ? path.join('.') : '(root)';
      if (!staticPath || path.length === 0)
        problem(`x-mcp-header on ${where} is not reachable through "properties" alone`);
      else if (typeof name !== 'string' || !TOKEN.test(name))
        problem(`x-mcp-header on ${where} must be a non-empty HTTP token (letters, digits, -_.!#$%&'*+^\`|~)`);
      else if (seen.has(name.toLowerCase())) problem(`x-mcp-header "${name}" is declared twice (names ignore case)`);
      else if (s.type !== 'string' && s.type !== 'integer' && s.type !== 'boolean')
        problem(
          `x-mcp-header "${name}" must be on a string, integer or boolean property (${where} is ${JSON.stringify(s.type)})`,
        );
      else {
        seen.add(name.toLowerCase());
        found.push({ name, path, type: s.type });
      }
    }
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [prop, sub] of Object.entries(value as Record<string, unknown>))
          visit(sub, [...path, prop], staticPath);
      } else if (NOT_STATIC.includes(key) || key === '$ref') visit(value, path, false);
    }
  };
  visit(schema, [], true);
  return found;
}

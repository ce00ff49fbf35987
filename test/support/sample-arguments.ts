/** The part of a tool's input schema this helper understands. */
interface SchemaLike {
  type?: string;
  properties?: Record<string, SchemaLike>;
  required?: string[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
}

/**
 * Arguments that satisfy a simple input schema (required strings, numbers, booleans and enums), or undefined when
 * the schema asks for more than that (patterns, formats, nested objects). Lets a suite call some read-only tool of
 * an app it does not know, such as a team's own server.
 */
export function sampleArguments(schema: SchemaLike): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const value = sampleValue(schema.properties?.[key] ?? {});
    if (value === undefined) return undefined;
    args[key] = value;
  }
  return args;
}

function sampleValue(s: SchemaLike): unknown {
  if (s.enum?.length) return s.enum[0];
  if (s.pattern || s.format) return undefined;
  switch (s.type) {
    case 'string':
      return 'a'.repeat(Math.min(Math.max(s.minLength ?? 1, 3), s.maxLength ?? 3));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

import { JsonSchema } from '../decorators/decorator-options.interface';

type Schema = JsonSchema;

/**
 * A starting point for the console's arguments field: every required property of the tool's input
 * schema with a plausible value (its example, default, first enum value or an empty value of its
 * type). Optional properties are left out so the prefill is valid as it stands whenever it can be.
 * @internal
 */
export function exampleArguments(schema: unknown): Record<string, unknown> {
  const s = schema as Schema | undefined;
  const properties = (s?.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(s?.required) ? (s!.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const key of required) out[key] = exampleValue(properties[key] ?? {}, 0);
  return out;
}

function exampleValue(schema: Schema, depth: number): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      // Nested required fields help more than an empty object; the depth cap stops recursive schemas.
      return depth < 3 ? Object.fromEntries(requiredOf(schema).map(([k, v]) => [k, exampleValue(v, depth + 1)])) : {};
    default:
      return '';
  }
}

function requiredOf(schema: Schema): [string, Schema][] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required.map((k) => [k, properties[k] ?? {}]);
}

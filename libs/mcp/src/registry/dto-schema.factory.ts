import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { DtoClass, JsonSchema } from '../decorators/decorator-options.interface';

/**
 * Builds a JSON Schema 2020-12 object from a class-validator DTO: `properties` with their
 * descriptions, `required`, and `additionalProperties: false`; nested DTOs land in `$defs`.
 * @internal
 */
export function dtoToJsonSchema(dto: DtoClass): JsonSchema {
  const options = { classValidatorMetadataStorage: getMetadataStorage(), refPointerPrefix: '#/$defs/' };
  const root = targetConstructorToSchema(dto as never, options) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  collectNested(root, defs, options);
  const schema = closeObject(root);
  schema.required ??= [];
  if (Object.keys(defs).length) schema.$defs = defs;
  return schema;
}

function closeObject(schema: JsonSchema): JsonSchema {
  return { type: 'object', properties: {}, ...schema, additionalProperties: false };
}

function collectNested(schema: unknown, defs: Record<string, JsonSchema>, options: object): void {
  if (!schema || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
      const name = value.slice('#/$defs/'.length);
      if (defs[name]) continue;
      const target = findTarget(name);
      if (!target) continue;
      defs[name] = {};
      const nested = closeObject(targetConstructorToSchema(target as never, options) as JsonSchema);
      defs[name] = nested;
      collectNested(nested, defs, options);
    } else {
      collectNested(value, defs, options);
    }
  }
}

function findTarget(name: string): DtoClass | undefined {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<DtoClass, unknown> | { target: DtoClass }[];
  };
  const metas = storage.validationMetadatas;
  const targets = metas instanceof Map ? [...metas.keys()] : metas.map((m) => m.target);
  return targets.find((t) => typeof t === 'function' && t.name === name);
}

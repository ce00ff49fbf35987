import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import AjvDraft7 from 'ajv';
import addFormats from 'ajv-formats';
import { JsonSchema } from '../interfaces/definitions.interface';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/**
 * Compiles JSON Schemas once at boot: 2020-12 by default, draft-07 when the schema says so
 * (standard §9.2). Invalid schemas throw here, so a broken registry never starts.
 * @internal
 */
export class SchemaCompiler {
  private readonly ajv2020 = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: true }));
  private readonly ajv7 = addFormats(new AjvDraft7({ strict: false, allErrors: true, validateSchema: true }));

  compile(schema: JsonSchema): ValidateFunction {
    checkBounds(schema);
    const ajv = typeof schema.$schema === 'string' && DRAFT_07.test(schema.$schema) ? this.ajv7 : this.ajv2020;
    if (!ajv.validateSchema(schema)) {
      throw new Error(`invalid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
    }
    return ajv.compile(schema);
  }
}

/** Nesting and size a schema may have (SEP-2106: composition keywords can make validation expensive). */
const MAX_DEPTH = 32;
const MAX_NODES = 2_000;

/**
 * Refuses schemas deeper or larger than any hand-written one (a generated or pasted schema that could make every
 * call's validation slow), and `$ref`s to anything but this schema: the engine never fetches a schema from the network.
 */
function checkBounds(schema: unknown): void {
  let nodes = 0;
  const walk = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null) return;
    if (++nodes > MAX_NODES) throw new Error(`invalid JSON Schema: more than ${MAX_NODES} subschemas`);
    if (depth > MAX_DEPTH) throw new Error(`invalid JSON Schema: nested deeper than ${MAX_DEPTH} levels`);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#'))
      throw new Error(
        `invalid JSON Schema: $ref "${ref.slice(0, 100)}" points outside the schema (only "#…" is resolved)`,
      );
    for (const value of Object.values(node)) walk(value, depth + 1);
  };
  walk(schema, 0);
}

/**
 * Turns Ajv errors into short lines naming the field and the violated constraint, never the value.
 * @internal
 */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, max = 8): string[] {
  const lines: string[] = [];
  for (const e of errors ?? []) {
    if (lines.length >= max) break;
    let field = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
    if (e.keyword === 'required')
      field = [field, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    if (e.keyword === 'additionalProperties') {
      field = [field, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
    }
    const line = `${field || '(arguments)'}: ${e.keyword}${e.message ? ` (${e.message})` : ''}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

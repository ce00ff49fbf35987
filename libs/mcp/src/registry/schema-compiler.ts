import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import AjvDraft7 from 'ajv';
import addFormats from 'ajv-formats';
import { JsonSchema } from '../decorators/decorator-options.interface';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** A validator of one schema: true when `data` conforms; `errors` then describes the last failure. @internal */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * Checks JSON Schemas at boot and compiles each on its first use: 2020-12 by default, draft-07 when the schema
 * says so (standard §9.2, see docs/compliance.md#s9). Everything that can make a schema unusable is found at boot
 * (the meta-schema, the bounds, every local `$ref` resolving), so a broken registry never starts; the compilation
 * itself (Ajv's code generation, most of a large catalogue's boot) is deferred to the tool's first call. A schema
 * whose references cannot be checked that way (anchors, nested `$id`, dynamic references) is compiled at boot.
 * @internal
 */
export class SchemaCompiler {
  private readonly ajv2020 = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: true }));
  private readonly ajv7 = addFormats(new AjvDraft7({ strict: false, allErrors: true, validateSchema: true }));

  compile(schema: JsonSchema): SchemaValidator {
    checkBounds(schema);
    const ajv = typeof schema.$schema === 'string' && DRAFT_07.test(schema.$schema) ? this.ajv7 : this.ajv2020;
    if (!ajv.validateSchema(schema)) {
      throw new Error(`invalid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
    }
    if (!refsResolveLocally(schema)) return ajv.compile(schema);
    let compiled: ValidateFunction | undefined;
    const validate: SchemaValidator = (data: unknown): boolean => {
      compiled ??= ajv.compile(schema);
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    };
    return validate;
  }
}

/** Keywords whose values are data, not schemas: a `$ref` key in them is not a reference. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose references a JSON Pointer walk cannot check. */
const UNCHECKED_REF_KEYWORDS = ['$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor'];

/**
 * True when every `$ref` in the schema is `#` or a JSON Pointer (`#/...`) that resolves inside it, and nothing
 * else (an anchor, a nested `$id` changing the base) takes part in resolution. Throws for a pointer that
 * resolves to nothing: Ajv would only say so when compiling.
 */
function refsResolveLocally(schema: JsonSchema): boolean {
  let checkable = true;
  const walk = (node: unknown, root: boolean): void => {
    if (!checkable || typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if ((!root && typeof record.$id === 'string') || UNCHECKED_REF_KEYWORDS.some((k) => k in record)) {
      checkable = false;
      return;
    }
    const ref = record.$ref;
    if (typeof ref === 'string' && ref !== '#') {
      if (!ref.startsWith('#/')) {
        checkable = false;
        return;
      }
      if (resolvePointer(schema, ref.slice(1)) === undefined)
        throw new Error(`invalid JSON Schema: $ref "${ref.slice(0, 100)}" does not resolve inside the schema`);
    }
    for (const key of Object.keys(record)) if (!DATA_KEYWORDS.has(key)) walk(record[key], false);
  };
  walk(schema, true);
  return checkable;
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
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

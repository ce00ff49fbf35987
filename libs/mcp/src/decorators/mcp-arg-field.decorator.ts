import { JSONSchema } from 'class-validator-jsonschema';
import { MCP_ARG_FIELD_METADATA } from '../mcp.constants';

/** Options of {@link McpField}. */
export interface McpFieldOptions {
  /** Shown to the model in the tool's `inputSchema`. */
  description: string;
  /** Example values for the schema's `examples`. */
  examples?: unknown[];
  /**
   * Marks the field as sensitive: it is published with `writeOnly: true` in the input schema, and
   * masked wherever arguments are logged (call and audit entries). A hand-written schema marks a
   * field the same way, with `writeOnly: true` (or `format: "password"`).
   */
  sensitive?: boolean;
}

/**
 * Describes one DTO property for the generated JSON Schema (the standard wants a description on
 * every field).
 *
 * @example @McpField({ description: 'Free-text query' }) @IsString() query!: string;
 */
export function McpField(options: McpFieldOptions): PropertyDecorator {
  const schema: Record<string, unknown> = { description: options.description };
  if (options.examples) schema.examples = options.examples;
  if (options.sensitive) schema.writeOnly = true;
  const jsonSchema = JSONSchema(schema);
  return (target, propertyKey) => {
    jsonSchema(target, propertyKey as string);
    const existing: Record<string, McpFieldOptions> =
      Reflect.getMetadata(MCP_ARG_FIELD_METADATA, target.constructor) ?? {};
    Reflect.defineMetadata(MCP_ARG_FIELD_METADATA, { ...existing, [propertyKey]: options }, target.constructor);
  };
}

import { JSONSchema } from 'class-validator-jsonschema';
import { MCP_ARG_FIELD_METADATA } from '../mcp.constants';

/** Options of {@link McpField}. */
export interface McpFieldOptions {
  /** Shown to the model in the tool's `inputSchema`. */
  description: string;
  /** Example values for the schema's `examples`. */
  examples?: unknown[];
  /** Marks the field as sensitive: masked in logs (observability issue). */
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
  const jsonSchema = JSONSchema(schema);
  return (target, propertyKey) => {
    jsonSchema(target, propertyKey as string);
    const existing: Record<string, McpFieldOptions> = Reflect.getMetadata(MCP_ARG_FIELD_METADATA, target.constructor) ?? {};
    Reflect.defineMetadata(MCP_ARG_FIELD_METADATA, { ...existing, [propertyKey]: options }, target.constructor);
  };
}

import type { ValidateFunction } from 'ajv';
import { DtoClass } from '../interfaces/definitions.interface';
import { McpCallContext } from '../interfaces/call-context.interface';

/** A discovered method wrapped in Nest's pipeline. @internal */
export type McpHandler = (args: Record<string, unknown>, ctx: McpCallContext) => Promise<unknown>;

/** Where an entry came from, for boot-time messages. @internal */
export interface EntrySource {
  className: string;
  methodName: string;
}

/** @internal */
export interface ToolEntry extends EntrySource {
  name: string;
  definition: Record<string, unknown>;
  validateInput: ValidateFunction;
  inputDto?: DtoClass;
  validateOutput?: ValidateFunction;
  timeoutMs: number;
  handler: McpHandler;
}

/** @internal */
export interface PromptEntry extends EntrySource {
  name: string;
  definition: Record<string, unknown>;
  required: string[];
  handler: McpHandler;
}

/** @internal */
export interface ResourceEntry extends Partial<EntrySource> {
  uri: string;
  mimeType: string;
  definition: Record<string, unknown>;
  handler: McpHandler;
}

/** @internal */
export interface ResourceTemplateEntry extends EntrySource {
  uriTemplate: string;
  mimeType: string;
  definition: Record<string, unknown>;
  match: (uri: string) => Record<string, string> | null;
  handler: McpHandler;
}

/** @internal */
export type CompletionHandler = (
  value: string,
  context: { arguments: Record<string, string> },
) => Promise<string[] | { values: string[]; total?: number; hasMore?: boolean }>;

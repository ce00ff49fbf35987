import { DtoClass } from '../decorators/decorator-options.interface';
import { McpCallContext } from '../context/call-context.interface';
import type { HeaderParam } from './header-params';
import type { SchemaValidator } from './schema-compiler';

/** A discovered method wrapped in Nest's pipeline. @internal */
export type McpHandler = (args: Record<string, unknown>, ctx: McpCallContext) => Promise<unknown>;

/** Where an entry came from, for boot-time messages. @internal */
export interface EntrySource {
  className: string;
  methodName: string;
}

/** Scopes a caller needs (`@McpScopes`); lists hide entries a caller cannot use. @internal */
export interface Scoped {
  requiredScopes?: readonly string[];
}

/** @internal */
export interface ToolEntry extends EntrySource, Scoped {
  name: string;
  definition: Record<string, unknown>;
  validateInput: SchemaValidator;
  inputDto?: DtoClass;
  validateOutput?: SchemaValidator;
  timeoutMs: number;
  rateLimit?: { callsPerMinute?: number; maxConcurrent?: number };
  /** Risk level of a mutating tool (its calls are audited); undefined for read-only tools. */
  risk?: 'low' | 'medium' | 'high';
  /** Argument paths masked in logs (`writeOnly` / `format: password` in the input schema). */
  sensitiveArgs: ReadonlySet<string>;
  /** Arguments mirrored in `Mcp-Param-*` headers (`x-mcp-header`), checked against the body over HTTP. */
  headerParams: readonly HeaderParam[];
  /** Set on a tool that runs as a task (`@McpTool({ task })`). */
  task?: ToolTask;
  /**
   * The argument keying the platform's replay (`mutation.idempotency: { key, replay: true }`): a repeat from the same
   * caller with the same value gets the first answer.
   */
  replayKey?: string;
  /** The MCP Apps view this tool links to, and who may call it (`@McpTool({ ui })`, docs/apps.md). */
  ui?: { resourceUri: string; visibility: readonly ('model' | 'app')[] };
  handler: McpHandler;
}

/** A task tool's resolved settings. @internal */
export interface ToolTask {
  support: 'optional' | 'required';
  asksFirst: boolean;
  ttlMs?: number;
  timeoutMs?: number;
  /**
   * A run cut short (its worker died) may run again: read-only, `idempotentHint`, or `mutation.idempotency.key`.
   * Otherwise the task fails instead of doing its side effects twice.
   */
  idempotent: boolean;
}

/** @internal */
export interface PromptEntry extends EntrySource, Scoped {
  name: string;
  definition: Record<string, unknown>;
  required: string[];
  handler: McpHandler;
}

/** @internal */
export interface ResourceEntry extends Partial<EntrySource>, Scoped {
  uri: string;
  mimeType: string;
  definition: Record<string, unknown>;
  /** Set on an MCP Apps view (`@McpApp`): its `_meta.ui`, sent with the content read too. */
  ui?: Record<string, unknown>;
  handler: McpHandler;
}

/** @internal */
export interface ResourceTemplateEntry extends EntrySource, Scoped {
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

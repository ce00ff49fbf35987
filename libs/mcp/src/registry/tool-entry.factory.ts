import { sensitivePaths } from './argument-masker';
import { DtoClass, JsonSchema, McpToolOptions } from '../decorators/decorator-options.interface';
import { dtoToJsonSchema } from './dto-schema.factory';
import { RegistryViolations, TOOL_NAME_PATTERN, toSnakeCase } from './registry-rules';
import { mutationProblems } from './mutation-rules';
import { McpHandler, ToolEntry } from './registry-entries';
import { SchemaCompiler } from './schema-compiler';
import { headerParams } from './header-params';
import { resolveToolTask } from './task-support.rules';
import { createToolDefinition, toolUi } from './tool-definition.factory';

const isDtoClass = (v: unknown): v is DtoClass => typeof v === 'function';
const EMPTY_INPUT: JsonSchema = { type: 'object', properties: {}, required: [], additionalProperties: false };

/**
 * Compiles one `@McpTool` into its wire definition, validators and handler, reporting every
 * corporate rule it breaks.
 * @internal
 */
export function buildToolEntry(
  options: McpToolOptions,
  source: { className: string; methodName: string },
  handler: McpHandler,
  ctx: { service: string; defaultTimeoutMs: number; compiler: SchemaCompiler; violations: RegistryViolations },
): ToolEntry | undefined {
  const where = `${source.className}.${source.methodName}`;
  const name = options.name ?? toSnakeCase(source.methodName);
  let ok = true;
  const fail = (msg: string) => {
    ctx.violations.add(where, msg);
    ok = false;
  };
  if (!TOOL_NAME_PATTERN.test(name)) fail(`tool name "${name}" does not match ${TOOL_NAME_PATTERN}`);
  if (!options.description?.trim()) fail(`tool "${name}" has an empty description`);
  const inputSchema = schemaOf(options.input, EMPTY_INPUT, `tool "${name}" input`, fail);
  const readOnly = options.annotations?.readOnlyHint === true;
  if (!readOnly) {
    for (const problem of mutationProblems(name, options.mutation, inputSchema)) fail(problem);
  }
  const outputSchema = options.output ? schemaOf(options.output, undefined, `tool "${name}" output`, fail) : undefined;
  if (inputSchema && inputSchema.type !== 'object') fail(`tool "${name}" inputSchema must have type "object"`);
  const validateInput = inputSchema
    ? compile(ctx.compiler, inputSchema, `tool "${name}" inputSchema`, fail)
    : undefined;
  const validateOutput = outputSchema
    ? compile(ctx.compiler, outputSchema, `tool "${name}" outputSchema`, fail)
    : undefined;
  checkToolNumbers(name, options, fail);
  const headers = inputSchema ? headerParams(inputSchema, (m) => fail(`tool "${name}" ${m}`)) : [];
  const task = resolveToolTask(name, options, fail);
  const replayKey = !readOnly ? replayKeyOf(options) : undefined;
  // A task keeps its own record and result (tasks/get, tasks/result): replay is for calls answered in the request.
  if (task && replayKey)
    fail(
      `tool "${name}" runs as a task, so mutation.idempotency.replay does not apply: a task's result is kept by the ` +
        `task itself; remove replay: true (or the task option)`,
    );
  if (!ok || !validateInput || !inputSchema) return undefined;

  const timeoutMs = options.timeoutMs ?? ctx.defaultTimeoutMs;
  const schemas = { input: inputSchema, output: outputSchema };
  return {
    name,
    definition: createToolDefinition(options, name, schemas, task, ctx.service, timeoutMs),
    validateInput,
    inputDto: isDtoClass(options.input) ? options.input : undefined,
    validateOutput,
    timeoutMs,
    rateLimit: options.rateLimit,
    risk: readOnly ? undefined : options.mutation?.risk,
    sensitiveArgs: sensitivePaths(inputSchema),
    headerParams: headers,
    task,
    replayKey,
    ui: toolUi(options),
    handler,
    ...source,
  };
}

/** The timeout and the rate limits a tool sets must be whole positive numbers. */
function checkToolNumbers(name: string, options: McpToolOptions, fail: (m: string) => void): void {
  if (options.timeoutMs !== undefined && (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1))
    fail(`tool "${name}" timeoutMs must be a positive integer`);
  for (const [k, v] of Object.entries(options.rateLimit ?? {})) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      fail(`tool "${name}" rateLimit.${k} must be a positive integer`);
  }
}

/** The argument whose value keys the platform's replay of a first answer (`idempotency: { key, replay: true }`). */
function replayKeyOf(options: McpToolOptions): string | undefined {
  const idempotency = options.mutation?.idempotency;
  return idempotency && 'key' in idempotency && idempotency.replay === true ? idempotency.key : undefined;
}

function schemaOf(
  input: DtoClass | JsonSchema | undefined,
  fallback: JsonSchema | undefined,
  label: string,
  fail: (m: string) => void,
): JsonSchema | undefined {
  if (input === undefined) return fallback;
  if (isDtoClass(input)) {
    try {
      return dtoToJsonSchema(input);
    } catch (e) {
      fail(`${label}: cannot build a JSON Schema from ${input.name}: ${(e as Error).message}`);
      return undefined;
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    fail(`${label} must be a DTO class or a JSON Schema object`);
    return undefined;
  }
  return input;
}

function compile(compiler: SchemaCompiler, schema: JsonSchema, label: string, fail: (m: string) => void) {
  try {
    return compiler.compile(schema);
  } catch (e) {
    fail(`${label} is ${(e as Error).message}`);
    return undefined;
  }
}

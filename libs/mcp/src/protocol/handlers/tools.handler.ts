import { plainToInstance } from 'class-transformer';
import { sanitizeErrorText } from '../../errors/message-sanitizer';
import { validate } from 'class-validator';
import { InvalidParamsError } from '../../errors/mcp.error';
import { toJsonRpcError, toolErrorText } from '../../errors/error-mapper';
import { McpError, RateLimitedError, TimeoutError } from '../../errors/mcp.error';
import { limitResultSize } from '../../limits/result-size';
import { ErrorCode } from '../../wire/json-rpc';
import { describeSchemaErrors } from '../../registry/schema-compiler';
import { ToolEntry } from '../../registry/registry-entries';
import { createCallContext } from '../call-context.factory';
import { normaliseToolResult } from '../tool-result.normalizer';
import { projectToolResult } from '../../wire/era-projection';
import { MethodResult, RequestScope } from './handler-context';
import { INVALID_ARGUMENTS } from '../../observability/call-outcome';

const errorResult = (text: string): Record<string, unknown> => ({ content: [{ type: 'text', text }], isError: true });

/** `tools/list`: a page serialised at boot. @internal */
export const listTools = ({ registry, params, session, principal }: RequestScope): MethodResult => ({
  raw: registry.page('tools', session.protocolVersion, params.cursor, principal),
});

/**
 * `tools/call`: shape checks (-32602), lookup, argument validation (isError naming fields and
 * constraints, never values), the handler through Nest's pipeline, result normalisation.
 * @internal
 */
export async function callTool(scope: RequestScope): Promise<MethodResult> {
  const { params, registry } = scope;
  if (typeof params.name !== 'string')
    throw new InvalidParamsError('Invalid params: name must be a string', { field: 'name', reason: 'required' });
  const args = params.arguments === undefined ? {} : params.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidParamsError('Invalid params: arguments must be an object', { field: 'arguments', reason: 'type' });
  }
  const tool = registry.tools.get(params.name);
  if (!tool) throw new InvalidParamsError('Unknown tool', { field: 'name', reason: 'unknown_tool' });

  const prepared = await prepareArguments(tool, args as Record<string, unknown>);
  if ('violations' in prepared) {
    // Violations name the caller's own keys and values: sanitised like every error text.
    const text = sanitizeErrorText(`Invalid arguments for tool ${tool.name}: ${prepared.violations.join('; ')}`);
    return Object.assign(errorResult(text), {
      [INVALID_ARGUMENTS]: true,
    });
  }

  const ctx = createCallContext(
    scope.session,
    scope.principal,
    scope.request,
    tool.name,
    scope.sink,
    scope.signal,
    scope.options,
  );
  try {
    const value = await scope.limiter.run(scope.session, tool.name, tool.rateLimit, () =>
      withTimeout(tool.handler(prepared.value, ctx), tool.timeoutMs, scope),
    );
    const result = limitResultSize(
      normaliseToolResult(value, tool),
      scope.options.limits.maxResultBytes,
      tool.name,
      tool.validateOutput,
    );
    return projectToolResult(result, scope.session.protocolVersion);
  } catch (error) {
    if (error instanceof TimeoutError || error instanceof RateLimitedError) throw error;
    // The platform's own refusal (the limits store unreachable), not the tool's outcome.
    if (error instanceof McpError && error.data?.reason === 'limit_store_unavailable') throw error;
    if (scope.signal.aborted) {
      // Aborted by the platform with a protocol error (shutdown): that is the answer. Otherwise the client cancelled.
      if (scope.signal.reason instanceof McpError) throw scope.signal.reason;
      throw new McpError(ErrorCode.ServerError, 'Request cancelled');
    }
    const text = toolErrorText(error);
    if (text !== undefined) return errorResult(text);
    if (error instanceof McpError) throw error;
    throw new McpError(...errorArgs(toJsonRpcError(error, `tools/call ${tool.name}`)));
  } finally {
    ctx.end();
  }
}

const errorArgs = (e: { code: number; message: string; data?: unknown }) =>
  [e.code, e.message, e.data as Record<string, unknown> | undefined] as const;

async function prepareArguments(
  tool: ToolEntry,
  args: Record<string, unknown>,
): Promise<{ value: Record<string, unknown> } | { violations: string[] }> {
  if (!tool.validateInput(args)) return { violations: describeSchemaErrors(tool.validateInput.errors) };
  if (!tool.inputDto) return { value: args };
  const instance = plainToInstance(tool.inputDto, args) as Record<string, unknown>;
  const errors = await validate(instance, { forbidUnknownValues: false });
  if (errors.length) {
    const violations = errors
      .flatMap((e) => Object.keys(e.constraints ?? { invalid: '' }).map((c) => `${e.property}: ${c}`))
      .slice(0, 8);
    return { violations };
  }
  return { value: instance };
}

/**
 * Gives up on a call after `ms`: its signal is aborted (so the work really stops) and the client gets
 * `-32004`; whatever the handler produces later is dropped.
 */
function withTimeout<T>(work: Promise<T>, ms: number, scope: RequestScope): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`Timeout: the tool did not finish within ${ms} ms`, { timeoutMs: ms });
      scope.abort(error);
      reject(error);
    }, ms);
  });
  // A handler that rejects after the timeout must not become an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

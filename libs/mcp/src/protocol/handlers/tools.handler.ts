import { plainToInstance } from 'class-transformer';
import { sanitizeErrorText } from '../../errors/message-sanitizer';
import { validate } from 'class-validator';
import { InvalidParamsError } from '../../errors/mcp.error';
import { assertScopes } from '../../auth/scopes';
import { limitResultSize } from '../../limits/result-size';
import { describeSchemaErrors } from '../../registry/schema-compiler';
import { ToolEntry } from '../../registry/registry-entries';
import { invoke } from '../../pipeline/invocation.stage';
import { normaliseToolResult } from '../../pipeline/tool-result.normalizer';
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
  // Authorization before argument validation: a caller without the scope learns nothing of the input schema.
  // (The scopes guard in the tool's Nest pipeline checks again, for run-time tools and custom guards.)
  assertScopes(scope.principal, tool.requiredScopes);

  const prepared = await prepareArguments(tool, args as Record<string, unknown>);
  if ('violations' in prepared) {
    // Violations name the caller's own keys and values: sanitised like every error text.
    const text = sanitizeErrorText(`Invalid arguments for tool ${tool.name}: ${prepared.violations.join('; ')}`);
    return Object.assign(errorResult(text), {
      [INVALID_ARGUMENTS]: true,
    });
  }

  const outcome = await invoke(scope, {
    kind: 'tool',
    target: tool.name,
    rateLimit: tool.rateLimit,
    timeoutMs: tool.timeoutMs,
    run: (ctx) => tool.handler(prepared.value, ctx),
  });
  if ('inputRequired' in outcome) return outcome.inputRequired;
  if ('failure' in outcome) return errorResult(outcome.failure);
  const result = limitResultSize(
    normaliseToolResult(outcome.value, tool),
    scope.options.limits.maxResultBytes,
    tool.name,
    tool.validateOutput,
  );
  return projectToolResult(result, scope.session.protocolVersion);
}

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

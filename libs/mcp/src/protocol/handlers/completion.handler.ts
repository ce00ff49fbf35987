import { InvalidParamsError } from '../../errors/mcp.error';
import { McpRegistry } from '../../registry/mcp.registry';
import { assertScopes } from '../../auth/scopes';
import { MethodResult, HandlerContext } from './handler-context';

const MAX_VALUES = 100;

/** `completion/complete` for prompt arguments and template variables. @internal */
export async function complete({ params, registry, principal }: HandlerContext): Promise<MethodResult> {
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (
    !ref ||
    typeof ref !== 'object' ||
    !argument ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw new InvalidParamsError('Invalid params: ref and argument { name, value } are required', {
      field: 'argument',
      reason: 'required',
    });
  }
  let key: string;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    if (!registry.prompts.has(ref.name))
      throw new InvalidParamsError('Unknown prompt', { field: 'ref.name', reason: 'unknown_prompt' });
    assertScopes(principal, registry.prompts.get(ref.name)!.requiredScopes);
    key = McpRegistry.completionKey('prompt', ref.name, argument.name);
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    if (!registry.templates.has(ref.uri))
      throw new InvalidParamsError('Unknown resource template', { field: 'ref.uri', reason: 'unknown_template' });
    assertScopes(principal, registry.templates.get(ref.uri)!.requiredScopes);
    key = McpRegistry.completionKey('template', ref.uri, argument.name);
  } else {
    throw new InvalidParamsError('Invalid params: ref must be ref/prompt or ref/resource', {
      field: 'ref',
      reason: 'type',
    });
  }
  const provider = registry.completions.get(key);
  if (!provider) return { completion: { values: [], hasMore: false } };
  const context = params.context as { arguments?: Record<string, string> } | undefined;
  const out = await provider(argument.value, { arguments: context?.arguments ?? {} });
  const values = (Array.isArray(out) ? out : out.values).filter((v) => typeof v === 'string');
  const total = Array.isArray(out) ? values.length : (out.total ?? values.length);
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total,
      hasMore: values.length > MAX_VALUES || (!Array.isArray(out) && !!out.hasMore),
    },
  };
}

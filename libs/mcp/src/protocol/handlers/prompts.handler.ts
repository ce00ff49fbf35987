import { InvalidParamsError } from '../../errors/mcp.error';
import { invoke } from '../../pipeline/invocation.stage';
import { projectContent } from '../../wire/era-projection';
import { MethodResult, HandlerContext } from './handler-context';

/** `prompts/list`. @internal */
export const listPrompts = ({ registry, params, peer, principal }: HandlerContext): MethodResult => ({
  raw: registry.page('prompts', peer.protocolVersion, params.cursor, principal),
});

/** `prompts/get`: name and string arguments checked, required ones present. @internal */
export async function getPrompt(request: HandlerContext): Promise<MethodResult> {
  const { params, registry } = request;
  if (typeof params.name !== 'string')
    throw new InvalidParamsError('Invalid params: name must be a string', { field: 'name', reason: 'required' });
  const prompt = registry.prompts.get(params.name);
  if (!prompt) throw new InvalidParamsError('Unknown prompt', { field: 'name', reason: 'unknown_prompt' });
  const args = params.arguments === undefined ? {} : params.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidParamsError('Invalid params: arguments must be an object', { field: 'arguments', reason: 'type' });
  }
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string')
      throw new InvalidParamsError(`Invalid params: argument ${key.slice(0, 64)} must be a string`, {
        field: key.slice(0, 64),
        reason: 'type',
      });
  }
  for (const name of prompt.required) {
    if (!(name in args))
      throw new InvalidParamsError(`Missing required argument: ${name}`, { field: name, reason: 'required' });
  }
  const outcome = await invoke(request, {
    kind: 'prompt',
    target: prompt.name,
    method: prompt.handler,
    args: args as Record<string, string>,
  });
  if ('inputRequired' in outcome) return outcome.inputRequired;
  if ('failure' in outcome) throw new InvalidParamsError(outcome.failure);
  const result = normalisePrompt(outcome.value, prompt.definition.description as string);
  const version = request.peer.protocolVersion;
  const messages = (result.messages as { content?: unknown }[]).map((m) => ({
    ...m,
    content: projectContent(m.content, version),
  }));
  return { ...result, messages };
}

function normalisePrompt(value: unknown, description: string): Record<string, unknown> {
  const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
  if (typeof value === 'string') return { description, messages: [text(value)] };
  if (Array.isArray(value)) return { description, messages: value };
  if (value && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages)) {
    return { description, ...(value as Record<string, unknown>) };
  }
  throw new Error('prompt handler returned neither a string, a message array nor { messages }');
}

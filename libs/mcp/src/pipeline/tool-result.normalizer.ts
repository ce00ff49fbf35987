import { McpError } from '../errors/mcp.error';
import { ToolEntry } from '../registry/registry-entries';
import { describeSchemaErrors } from '../registry/schema-compiler';
import { ErrorCode } from '../wire/json-rpc';
import { ProtocolVersion } from '../wire/protocol-version';
import { projectToolResult } from '../wire/era-projection';
import { limitResultSize } from '../limits/result-size';
import { IDEMPOTENT_REPLAY_META_KEY } from './idempotency.keeper';

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);
const isContentItem = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && CONTENT_TYPES.has((v as { type?: unknown }).type as string);

/**
 * Turns whatever a tool returned into a `CallToolResult`: a string is text, a content item or an
 * array of them is `content`, an object with `content` is taken as is, any other object becomes
 * `structuredContent` mirrored as JSON text. Structured output is checked against `outputSchema`.
 * @internal
 */
export function normaliseToolResult(value: unknown, tool: ToolEntry): Record<string, unknown> {
  let result: Record<string, unknown>;
  if (value === undefined || value === null) result = { content: [] };
  else if (typeof value === 'string') result = { content: [{ type: 'text', text: value }] };
  else if (typeof value === 'number' || typeof value === 'boolean')
    result = { content: [{ type: 'text', text: String(value) }] };
  else if (Array.isArray(value) && value.every(isContentItem)) result = { content: value };
  else if (isContentItem(value)) result = { content: [value] };
  else if (typeof value === 'object' && Array.isArray((value as { content?: unknown }).content))
    result = { ...(value as Record<string, unknown>) };
  else if (typeof value === 'object' && !Array.isArray(value)) {
    const structured = { ...(value as Record<string, unknown>) };
    result = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } else {
    throw new McpError(ErrorCode.InternalError, 'Internal error');
  }
  if (tool.validateOutput && result.isError !== true) {
    if (result.structuredContent === undefined || !tool.validateOutput(result.structuredContent)) {
      const why =
        result.structuredContent === undefined
          ? 'no structuredContent'
          : describeSchemaErrors(tool.validateOutput.errors).join('; ');
      throw Object.assign(new Error(`tool ${tool.name} returned output that does not match its outputSchema: ${why}`), {
        internal: true,
      });
    }
  }
  return result;
}

/**
 * What a tool call answers, from its outcome: the value normalised, size-limited and projected for the client's
 * revision, or the failure as an `isError` result. The same in a request and in a task's run.
 * @internal
 */
export function toolCallResult(
  outcome: { value: unknown; replayed?: true } | { failure: string },
  tool: ToolEntry,
  maxResultBytes: number,
  version: ProtocolVersion,
): Record<string, unknown> {
  if ('failure' in outcome) return toolErrorResult(outcome.failure);
  const result = limitResultSize(
    normaliseToolResult(outcome.value, tool),
    maxResultBytes,
    tool.name,
    tool.validateOutput,
  );
  // A first call's answer given again: the client can tell it from a fresh run (docs/authoring.md#idempotency).
  if (outcome.replayed) {
    const meta = result._meta as Record<string, unknown> | undefined;
    result._meta = { ...meta, [IDEMPOTENT_REPLAY_META_KEY]: true };
  }
  return projectToolResult(result, version);
}

/** A tool error the model can act on. @internal */
export const toolErrorResult = (text: string): Record<string, unknown> => ({
  content: [{ type: 'text', text }],
  isError: true,
});

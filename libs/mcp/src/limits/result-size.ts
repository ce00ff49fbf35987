import { Logger } from '@nestjs/common';

const logger = new Logger('McpLimits');

/** Approximate wire size of content items: the big parts are text, base64 data and embedded resources. */
function itemSize(item: Record<string, unknown>): number {
  const resource = item.resource as Record<string, unknown> | undefined;
  return (
    String(item.text ?? '').length +
    String(item.data ?? '').length +
    String(resource?.text ?? '').length +
    String(resource?.blob ?? '').length +
    64
  );
}

/**
 * Keeps a tool result under `maxBytes` (corporate standard §12.2, §14): text is cut and items past
 * the limit dropped, with a visible marker in `content` and `truncated: true` in `structuredContent`
 * when there is one; the server log records it. Counting is approximate (characters, not bytes) but
 * never lets a result far over the limit through.
 * @internal
 */
export function limitResultSize(result: Record<string, unknown>, maxBytes: number, tool: string): Record<string, unknown> {
  const content = (result.content as Record<string, unknown>[] | undefined) ?? [];
  let total = 0;
  for (const item of content) total += itemSize(item);
  if (total <= maxBytes) return result;
  const marker = `[truncated: the result exceeded the ${maxBytes}-byte limit]`;
  let budget = maxBytes - marker.length - 64;
  const kept: Record<string, unknown>[] = [];
  for (const item of content) {
    const size = itemSize(item);
    if (size <= budget) {
      kept.push(item);
      budget -= size;
    } else {
      if (item.type === 'text' && budget > 0) kept.push({ ...item, text: String(item.text).slice(0, budget) });
      break;
    }
  }
  kept.push({ type: 'text', text: marker });
  logger.warn(`tool ${tool} result truncated: about ${total} bytes over the ${maxBytes}-byte limit`);
  const out: Record<string, unknown> = { ...result, content: kept };
  if (result.structuredContent && typeof result.structuredContent === 'object') {
    out.structuredContent = { ...(result.structuredContent as Record<string, unknown>), truncated: true };
  }
  return out;
}

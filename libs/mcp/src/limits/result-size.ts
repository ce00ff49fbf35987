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

/** Cuts the longest strings of a structured result until its JSON fits `budget` characters. */
function shrinkStructured(value: Record<string, unknown>, budget: number): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  const leaves: { holder: Record<string, unknown> | unknown[]; key: string | number; length: number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      node.forEach((v, i) => {
        if (typeof v === 'string') leaves.push({ holder: node, key: i, length: v.length });
        else walk(v);
      });
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === 'string') leaves.push({ holder: node as Record<string, unknown>, key: k, length: v.length });
        else walk(v);
      }
    }
  };
  walk(copy);
  leaves.sort((a, b) => b.length - a.length);
  let excess = JSON.stringify(copy).length - budget;
  for (const leaf of leaves) {
    if (excess <= 0) break;
    const keep = Math.max(0, leaf.length - excess - 16);
    const text = (leaf.holder as Record<string | number, string>)[leaf.key];
    (leaf.holder as Record<string | number, string>)[leaf.key] = `${text.slice(0, keep)}…[truncated]`;
    excess -= leaf.length - keep;
  }
  return copy;
}

/**
 * Keeps a tool result under `maxBytes` (corporate standard §12.2 and §14, see docs/compliance.md#s12 and
 * docs/compliance.md#s14): text is cut and items past the limit dropped, with a visible `[truncated: ...]` marker
 * in `content`; a structured result has its longest strings cut and gets `truncated: true` when its `outputSchema`
 * allows that field (the text marker is there either way); the server log records it. Sizes are counted in
 * characters.
 * @internal
 */
export function limitResultSize(
  result: Record<string, unknown>,
  maxBytes: number,
  tool: string,
  validateOutput?: (data: unknown) => boolean,
): Record<string, unknown> {
  const content = (result.content as Record<string, unknown>[] | undefined) ?? [];
  let total = 0;
  for (const item of content) total += itemSize(item);
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const structuredSize = structured && typeof structured === 'object' ? JSON.stringify(structured).length : 0;
  if (total + structuredSize <= maxBytes) return result;
  const marker = `[truncated: the result exceeded the ${maxBytes}-byte limit]`;
  // Structured output and its text mirror share the budget.
  let budget = (structuredSize ? Math.floor(maxBytes / 2) : maxBytes) - marker.length - 64;
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
  logger.warn(
    `tool ${tool} result truncated: about ${total + structuredSize} characters over a ${maxBytes}-byte limit`,
  );
  const out: Record<string, unknown> = { ...result, content: kept };
  if (structuredSize) {
    const shrunk = shrinkStructured(structured!, Math.floor(maxBytes / 2) - 32);
    const flagged = { ...shrunk, truncated: true };
    out.structuredContent = !validateOutput || validateOutput(flagged) ? flagged : shrunk;
  }
  return out;
}

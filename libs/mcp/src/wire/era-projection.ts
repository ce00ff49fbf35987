import { ProtocolVersion } from './protocol-version';

type Def = Record<string, unknown>;
export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

const keep = (d: Def, keys: string[]): Def =>
  Object.fromEntries(keys.filter((k) => d[k] !== undefined).map((k) => [k, d[k]]));
const drop = (d: Def, keys: string[]): Def => Object.fromEntries(Object.entries(d).filter(([k]) => !keys.includes(k)));

/** Fields each older revision knows; newer fields are left out rather than confusing strict clients. */
const SESSION_ERA_FIELDS: Record<ListKind, string[]> = {
  tools: ['name', 'description', 'inputSchema', 'annotations'],
  prompts: ['name', 'description', 'arguments'],
  resources: ['uri', 'name', 'description', 'mimeType', 'size', 'annotations'],
  resourceTemplates: ['uriTemplate', 'name', 'description', 'mimeType', 'annotations'],
};

/**
 * The definition as a client on `version` expects it: `icons`/`execution` only from 2025-11-25;
 * `title`, `outputSchema` and `_meta` only from 2025-06-18; tool `annotations` only from 2025-03-26.
 * @internal
 */
export function projectDefinition(kind: ListKind, def: Def, version: ProtocolVersion): Def {
  switch (version) {
    case '2026-07-28':
      // Tasks left the core protocol for an extension: no `execution` on a modern tool.
      return kind === 'tools' ? drop(def, ['execution']) : def;
    case '2025-11-25':
      return def;
    case '2025-06-18':
      return drop(def, ['icons', 'execution']);
    case '2025-03-26':
      return sessionEraDefinition(kind, def, SESSION_ERA_FIELDS[kind]);
    case '2024-11-05':
      return sessionEraDefinition(
        kind,
        def,
        SESSION_ERA_FIELDS[kind].filter((k) => !(kind === 'tools' && k === 'annotations')),
      );
  }
}

function sessionEraDefinition(kind: ListKind, def: Def, fields: string[]): Def {
  const out = keep(def, fields);
  if (kind === 'prompts' && Array.isArray(out.arguments)) {
    out.arguments = (out.arguments as Def[]).map((a) => keep(a, ['name', 'description', 'required']));
  }
  return out;
}

/**
 * Content items as a client on `version` can read them: `resource_link` (2025-06-18) becomes text,
 * and audio (2025-03-26) becomes a text note for 2024-11-05.
 * @internal
 */
export function projectContent(item: unknown, version: ProtocolVersion): unknown {
  if (
    version === '2026-07-28' ||
    version === '2025-11-25' ||
    version === '2025-06-18' ||
    typeof item !== 'object' ||
    item === null
  )
    return item;
  const c = item as Def;
  if (c.type === 'resource_link') return { type: 'text', text: `${String(c.name ?? 'resource')}: ${String(c.uri)}` };
  if (c.type === 'audio' && version === '2024-11-05')
    return { type: 'text', text: `[audio content (${String(c.mimeType)}) needs a newer client]` };
  return item;
}

/** A `CallToolResult` for `version`: no `structuredContent` before 2025-06-18. @internal */
export function projectToolResult(result: Def, version: ProtocolVersion): Def {
  if (version === '2026-07-28' || version === '2025-11-25' || version === '2025-06-18') return result;
  const out = drop(result, ['structuredContent']);
  if (Array.isArray(out.content)) out.content = out.content.map((c) => projectContent(c, version));
  return out;
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListedTool } from './tools.checks';

/** The file the contract gate writes beside an app (`npm run contract -- <app>`). */
export const CONTRACT_FILE = 'mcp-contract.json';
const COMPARED = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** The annotations MCP defines: the snapshot is read with the official SDK client, which keeps only these. */
const MCP_ANNOTATIONS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/**
 * JSON with its object keys sorted, so two equal values print alike whatever order a server writes keys in; an
 * empty `required` list is the same as none (the SDK client that reads the snapshot adds it).
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => !(k === 'required' && isEmptyList((value as Record<string, unknown>)[k])))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * Whether the folder's contract snapshot still says what the server lists: undefined when the folder has none (a
 * server not built on the platform need not), else one line per tool added, removed or changed since it was written.
 */
export function snapshotDrift(dir: string, tools: ListedTool[]): string[] | undefined {
  const file = join(dir, CONTRACT_FILE);
  if (!existsSync(file)) return undefined;
  let recorded: { tools?: Record<string, unknown>[] };
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8')) as typeof recorded;
  } catch (error) {
    return [`${CONTRACT_FILE} is not JSON (${(error as Error).message})`];
  }
  const shape = (t: Record<string, unknown>) =>
    canonical(COMPARED.map((k) => (k === 'annotations' ? mcpAnnotations(t[k]) : t[k]) ?? null));
  const was = new Map((recorded.tools ?? []).map((t) => [String(t.name), shape(t)]));
  const now = new Map(tools.map((t) => [String(t.name), shape(t as Record<string, unknown>)]));
  const drift: string[] = [];
  for (const [name, listed] of now)
    if (!was.has(name)) drift.push(`tool ${name} is served but not in ${CONTRACT_FILE}`);
    else if (was.get(name) !== listed) drift.push(`tool ${name} differs from ${CONTRACT_FILE}`);
  for (const name of was.keys()) if (!now.has(name)) drift.push(`tool ${name} is in ${CONTRACT_FILE} but not served`);
  return drift;
}

function mcpAnnotations(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const known = Object.entries(value).filter(([k]) => MCP_ANNOTATIONS.includes(k));
  return known.length ? Object.fromEntries(known) : undefined;
}

const isEmptyList = (v: unknown) => Array.isArray(v) && v.length === 0;

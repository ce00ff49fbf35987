import { TOOL_SAFETY_META_KEY } from '../registry/tool-description.renderer';
import { exampleArguments } from './argument-example.factory';
import { RiskLevel, ToolView } from './service-page.model';

const RISKS: readonly string[] = ['low', 'medium', 'high'];
// The registry appends the safety text to every description (tool-description.renderer.ts); the page
// shows risk and side effects on their own, so it takes the team's text without that suffix.
const SAFETY_SUFFIX = /\n\n(?:Read-only: no side effects\.|Risk: (?:low|medium|high)\.\n[\s\S]*)$/;

interface ToolSource {
  name: string;
  definition: Record<string, unknown>;
  requiredScopes?: readonly string[];
  /** The registry's own record of a mutating tool's risk, when it keeps one. */
  risk?: string;
}

/** The page's view of one registered tool: risk level, scopes and a prefill for the console. @internal */
export function toolView(entry: ToolSource): ToolView {
  const d = entry.definition;
  const safety = ((d._meta as Record<string, unknown> | undefined)?.[TOOL_SAFETY_META_KEY] ?? {}) as Record<
    string,
    unknown
  >;
  return {
    name: entry.name,
    title: str(d.title),
    description: (str(d.description) ?? '').replace(SAFETY_SUFFIX, '').trim(),
    risk: entry.risk && RISKS.includes(entry.risk) ? (entry.risk as RiskLevel) : riskLevel(d),
    sideEffects: str(safety.sideEffects),
    approval: str(safety.approval),
    scopes: [...(entry.requiredScopes ?? [])].sort(),
    example: JSON.stringify(exampleArguments(d.inputSchema), null, 2),
  };
}

/**
 * Read-only when the tool says so; otherwise the corporate `riskLevel` annotation (or the same value in
 * the safety `_meta`). A mutating tool without one cannot pass the boot checks, hence `unspecified`.
 * @internal
 */
export function riskLevel(definition: Record<string, unknown>): RiskLevel {
  const annotations = (definition.annotations ?? {}) as Record<string, unknown>;
  const safety = ((definition._meta as Record<string, unknown> | undefined)?.[TOOL_SAFETY_META_KEY] ?? {}) as Record<
    string,
    unknown
  >;
  const risk = annotations.riskLevel ?? safety.risk;
  if (typeof risk === 'string' && RISKS.includes(risk)) return risk as RiskLevel;
  return annotations.readOnlyHint === true ? 'read-only' : 'unspecified';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

import { McpToolAnnotations, McpToolOptions } from '../decorators/decorator-options.interface';

/** `_meta` key carrying the corporate safety metadata in machine-readable form. */
export const TOOL_SAFETY_META_KEY = 'corporate/tool-safety';

/**
 * Renders the corporate safety metadata (standard §9.3, see docs/compliance.md#s9) into the human-readable
 * description and the annotations, so a routing agent sees risk and side effects without parsing annotations.
 * @internal
 */
export function renderToolSafety(
  options: McpToolOptions,
  toolName: string,
  service: string,
  timeoutMs: number,
): {
  description: string;
  annotations: McpToolAnnotations & Record<string, unknown>;
  safety?: Record<string, unknown>;
} {
  const annotations: McpToolAnnotations & Record<string, unknown> = { ...options.annotations };
  if (annotations.readOnlyHint === true || !options.mutation) {
    return { description: `${options.description.trim()}\n\nRead-only: no side effects.`, annotations };
  }
  const m = options.mutation;
  annotations.readOnlyHint = false;
  annotations.riskLevel = m.risk;
  // MCP reads a tool without `openWorldHint` as reaching outside the server: say so only when it does.
  if (m.external === false) annotations.openWorldHint ??= false;
  const lines = [`Risk: ${m.risk}.`, `Side effects: ${m.sideEffects.trim()}`];
  if (m.external !== false) {
    const idem =
      m.idempotency && 'key' in m.idempotency
        ? `Idempotency: repeat calls with the same \`${m.idempotency.key}\` have no further effect.`
        : `Idempotency: none (${m.idempotency?.none ?? 'not idempotent'}).`;
    lines.push(
      idem,
      `Retry: ${m.retry}`,
      `Timeout: ${m.timeoutBehavior ?? `the call is aborted after ${Math.round(timeoutMs / 1000)} s and reported as a timeout; the change may or may not have been applied, so check before retrying.`}`,
      `Audit event: ${m.audit ?? `${service}.tool.${toolName}`}.`,
      `Approval: ${m.approval}`,
    );
  }
  const safety: Record<string, unknown> = {
    risk: m.risk,
    sideEffects: m.sideEffects.trim(),
    external: m.external !== false,
  };
  if (m.external !== false) {
    Object.assign(safety, {
      idempotency: m.idempotency,
      retry: m.retry,
      approval: m.approval,
      audit: m.audit ?? `${service}.tool.${toolName}`,
    });
  }
  return { description: `${options.description.trim()}\n\n${lines.join('\n')}`, annotations, safety };
}

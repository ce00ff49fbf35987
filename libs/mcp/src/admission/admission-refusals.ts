/** One refusal by a budget, as the metrics and the refusal log see it. @internal */
export interface AdmissionRefusal {
  /** The `target` label of `mcp_rate_limited_total`: a method, a tool, `streams`, `initialize`, `replay`. */
  target: string;
  /** The `limit` label: which budget refused (`requests`, `rate`, `concurrency`, `streams`, `sessions`...). */
  limit: string;
  /** The reason of the aggregated refusal log line (`rate_limited:requests`, `stream_limit:streams`...). */
  reason: string;
  /** Who was refused: a token subject, or a peer address without a token. */
  subject: string;
  /** Bounded values for the first log line (never caller input). */
  detail?: Record<string, unknown>;
}

/**
 * Where admission tells of its refusals: admission sits below observability, so it owns this contract and
 * observability implements it (counting every refusal and aggregating its log lines). Optional: without an
 * implementation refusals are only answered.
 * @internal
 */
export abstract class McpAdmissionRefusals {
  abstract refused(refusal: AdmissionRefusal): void;
}

/**
 * A refusal by a rate or concurrency budget: its metric target is bounded (tool and prompt names are; resource URIs,
 * template-expanded, count as one), its log line aggregated per caller and limit.
 * @internal
 */
export function rateLimited(
  refusals: McpAdmissionRefusals | undefined,
  target: string,
  limit: string,
  subject: string,
): void {
  const label = target.includes('://') ? 'resources/read' : target;
  refusals?.refused({ target: label, limit, reason: `rate_limited:${limit}`, subject, detail: { target: label } });
}

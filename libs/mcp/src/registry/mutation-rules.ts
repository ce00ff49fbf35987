import { JsonSchema, McpToolMutation } from '../decorators/decorator-options.interface';

const RISKS = ['low', 'medium', 'high'];

/**
 * The corporate §9.3 (docs/compliance.md#s9) checks of a tool that is not `readOnlyHint: true`, all at once: every
 * missing or wrong `mutation` field is reported in the same boot, each with the fix, so a team never meets them one
 * restart at a time. `inputSchema` is the tool's compiled input (for `idempotency.key`).
 * @internal
 */
export function mutationProblems(tool: string, m: McpToolMutation | undefined, inputSchema?: JsonSchema): string[] {
  const problems: string[] = [];
  const need = (field: string, fix: string) =>
    problems.push(`tool "${tool}" is not readOnlyHint:true, so it needs mutation.${field}: ${fix}`);
  if (!m?.risk || !RISKS.includes(m.risk)) {
    need('risk', `how bad a wrong call is, risk: 'low' | 'medium' | 'high'`);
  }
  if (!m?.sideEffects?.trim()) {
    need('sideEffects', `say what a call changes, e.g. sideEffects: 'Creates a ticket and e-mails the requester.'`);
  }
  // `external` defaults to true: a change outside the call needs idempotency, retry and approval too.
  if (m?.external !== false) externalProblems(tool, m, problems);
  idempotencyProblems(tool, m, inputSchema, problems);
  return problems;
}

/** What a tool with side effects outside the call must also say: idempotency, retry, approval. */
function externalProblems(tool: string, m: McpToolMutation | undefined, problems: string[]): void {
  const external = (field: string, fix: string) =>
    problems.push(
      `tool "${tool}" has external side effects (mutation.external is not false), so it needs mutation.${field}: ${fix}`,
    );
  if (!m?.idempotency) {
    external(
      'idempotency',
      `name the argument that makes a retry safe, idempotency: { key: '<argument>' }, or say why there is none, ` +
        `idempotency: { none: '...' }`,
    );
  }
  if (!m?.retry?.trim())
    external('retry', `say when a retry is safe, e.g. retry: 'safe: a repeated key changes nothing.'`);
  if (!m?.approval?.trim()) {
    external('approval', `say who approves, e.g. approval: 'the user confirms through elicitation' or 'not required'`);
  }
}

/** `idempotency` names an argument of the tool (required when its first answer is replayed), or says why none. */
function idempotencyProblems(
  tool: string,
  m: McpToolMutation | undefined,
  inputSchema: JsonSchema | undefined,
  problems: string[],
): void {
  const idempotency = m?.idempotency as { key?: unknown; none?: unknown } | undefined;
  if (idempotency && 'key' in idempotency) {
    const properties = Object.keys((inputSchema?.properties as Record<string, unknown> | undefined) ?? {});
    if (typeof idempotency.key !== 'string' || !properties.includes(idempotency.key)) {
      problems.push(
        `tool "${tool}": mutation.idempotency.key ${JSON.stringify(idempotency.key)} is not an argument of the tool; ` +
          (properties.length
            ? `name one of its arguments (${properties.join(', ')}) or use idempotency: { none: '...' }`
            : `it takes no arguments: add the key to its input DTO or use idempotency: { none: '...' }`),
      );
    }
    const replay = (idempotency as { replay?: unknown }).replay;
    if (replay !== undefined && typeof replay !== 'boolean') {
      problems.push(
        `tool "${tool}": mutation.idempotency.replay must be true or false (got ${JSON.stringify(replay)})`,
      );
    } else if (replay === true && properties.includes(idempotency.key as string)) {
      const required = (inputSchema?.required as unknown[] | undefined) ?? [];
      if (!required.includes(idempotency.key))
        problems.push(
          `tool "${tool}": mutation.idempotency.replay needs the key "${String(idempotency.key)}" in every call: ` +
            `make it a required argument (no @IsOptional() on it in the input DTO)`,
        );
    }
  } else if (idempotency && (typeof idempotency.none !== 'string' || !idempotency.none.trim())) {
    problems.push(
      `tool "${tool}": mutation.idempotency needs { key: '<argument>' } or { none: '<why there is none>' }`,
    );
  }
}

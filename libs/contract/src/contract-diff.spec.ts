import { checkContract, deprecationMark, recordDeprecations } from './contract-diff';
import { McpContract } from './contract.types';

const input = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^HD-\\d+$' },
    note: { type: 'string', maxLength: 200 },
    status: { type: 'string', enum: ['open', 'closed'] },
  },
  required: ['id'],
  additionalProperties: false,
};

function contract(version: string, patch: Partial<McpContract> = {}): McpContract {
  return {
    server: { name: 'desk', version },
    tools: [
      {
        name: 'get_ticket',
        description: 'Reads a ticket.',
        inputSchema: input,
        outputSchema: {
          type: 'object',
          properties: { id: { type: 'string' }, title: { type: 'string' } },
          required: ['id'],
        },
      },
    ],
    prompts: [{ name: 'triage', arguments: [{ name: 'ticketId', required: true }, { name: 'tone' }] }],
    resources: [{ uri: 'desk://catalog', name: 'catalog', mimeType: 'application/json' }],
    resourceTemplates: [{ uriTemplate: 'desk://tickets/{id}', name: 'ticket', mimeType: 'application/json' }],
    deprecations: {},
    ...patch,
  };
}

const ctx = { today: '2027-06-01', changelog: '' };
const withTool = (c: McpContract, change: (t: McpContract['tools'][number]) => void): McpContract => {
  const copy = structuredClone(c);
  change(copy.tools[0]);
  return copy;
};

describe('checkContract', () => {
  it('passes an unchanged contract', () => {
    expect(checkContract(contract('1.0.0'), contract('1.0.0'), ctx)).toEqual({ problems: [], notes: [] });
  });

  it('names each breaking change of a tool input', () => {
    const after = withTool(contract('1.0.1'), (t) => {
      const p = t.inputSchema.properties as Record<string, Record<string, unknown>>;
      p.note.maxLength = 100;
      p.status.enum = ['open'];
      p.id.type = 'integer';
      (t.inputSchema.required as string[]).push('note');
      p.reason = { type: 'string' };
      (t.inputSchema.required as string[]).push('reason');
    });
    const { problems } = checkContract(contract('1.0.0'), after, ctx);
    const text = problems.join('\n');
    expect(text).toContain('tool "get_ticket": input property "note" maxLength lowered to 100');
    expect(text).toContain('tool "get_ticket": input property "status" enum lost "closed"');
    expect(text).toContain('tool "get_ticket": input property "id" type narrowed from string to integer');
    expect(text).toContain('tool "get_ticket": input property "note" became required');
    expect(text).toContain('tool "get_ticket": new required input property "reason"');
    for (const p of problems) expect(p).toContain('a breaking change needs a major version bump (1.0.0 -> 1.0.1)');
  });

  it('names a removed output field and a removed input property', () => {
    const after = withTool(contract('1.0.1'), (t) => {
      delete (t.outputSchema!.properties as Record<string, unknown>).title;
      delete (t.inputSchema.properties as Record<string, unknown>).note;
    });
    const text = checkContract(contract('1.0.0'), after, ctx).problems.join('\n');
    expect(text).toContain('tool "get_ticket": output field "title" was removed');
    expect(text).toContain('tool "get_ticket": input property "note" was removed');
  });

  it('names removed items and prompt argument changes', () => {
    const after = contract('1.1.0', {
      tools: [],
      prompts: [
        {
          name: 'triage',
          arguments: [
            { name: 'ticketId', required: true },
            { name: 'tone', required: true },
          ],
        },
      ],
      resources: [],
    });
    const text = checkContract(contract('1.0.0'), after, ctx).problems.join('\n');
    expect(text).toContain('tool "get_ticket" was removed or renamed: deprecate it first');
    expect(text).toContain('resource "desk://catalog" was removed or renamed');
    expect(text).toContain('prompt "triage": argument "tone" became required');
  });

  it('allows every breaking change with a major version bump, and says so', () => {
    const after = contract('2.0.0', { tools: [] });
    const verdict = checkContract(contract('1.4.2'), after, ctx);
    expect(verdict.problems).toEqual([]);
    expect(verdict.notes).toEqual(['tool "get_ticket" was removed (allowed: major version bump 1.4.2 -> 2.0.0)']);
  });

  it('allows a removal after the §17.2 window: deadline passed, 2 minor versions and 3 months since the mark', () => {
    const deprecations = { 'tool:get_ticket': { since: '1.2.0', date: '2027-01-10', removal: '2027-05-01' } };
    const before = contract('1.3.0', { deprecations });
    expect(checkContract(before, contract('1.4.0', { tools: [] }), ctx).problems).toEqual([]);
    const early = checkContract(before, contract('1.3.1', { tools: [] }), { ...ctx, today: '2027-03-01' }).problems;
    expect(early).toEqual([
      'tool "get_ticket" was removed before its deprecation window ended: its support deadline 2027-05-01 has not ' +
        'passed, 3 months since 2027-01-10 have not passed, 2 minor versions since 1.2.0 have not passed (now 1.3.1)',
    ]);
  });

  it('needs a minor bump and a CHANGELOG line for an addition', () => {
    const added = (version: string) =>
      contract(version, {
        tools: [...contract(version).tools, { name: 'list_queues', inputSchema: { type: 'object' } }],
      });
    expect(checkContract(contract('1.0.0'), added('1.0.1'), ctx).problems).toEqual([
      'tool "list_queues" was added: an addition needs a minor version bump (1.0.0 -> 1.0.1) and a CHANGELOG.md line naming "list_queues"',
    ]);
    const ok = checkContract(contract('1.0.0'), added('1.1.0'), { ...ctx, changelog: '- `list_queues`: new' });
    expect(ok).toEqual({ problems: [], notes: ['tool "list_queues" was added'] });
  });

  it('treats a new optional input as an addition, not a break', () => {
    const after = withTool(contract('1.1.0'), (t) => {
      (t.inputSchema.properties as Record<string, unknown>).limit = { type: 'integer' };
    });
    const verdict = checkContract(contract('1.0.0'), after, { ...ctx, changelog: 'get_ticket takes a limit' });
    expect(verdict).toEqual({ problems: [], notes: ['tool "get_ticket": optional input "limit" was added'] });
  });

  it('refuses a [DEPRECATED] mark without a support deadline', () => {
    const after = withTool(contract('1.0.0'), (t) => (t.description = '[DEPRECATED] Reads a ticket.'));
    expect(checkContract(contract('1.0.0'), after, ctx).problems).toEqual([
      'tool "get_ticket" is marked [DEPRECATED] without a support deadline (YYYY-MM-DD)',
    ]);
  });
});

describe('checkContract: skills', () => {
  const TRIAGE = 'skill://triage-ticket/SKILL.md';
  const skill = (digest = 'sha256:aa', extra: { uri: string; digest: string }[] = []) => ({
    uri: TRIAGE,
    name: 'triage-ticket',
    description: 'Triage a desk ticket.',
    files: [{ uri: TRIAGE, digest }, ...extra],
  });

  it('treats a contract recorded before skills as one without skills', () => {
    expect(checkContract(contract('1.0.0'), contract('1.0.0', { skills: [] }), ctx)).toEqual({
      problems: [],
      notes: [],
    });
  });

  it('needs a minor bump and a CHANGELOG line naming a new skill', () => {
    expect(checkContract(contract('1.0.0'), contract('1.0.1', { skills: [skill()] }), ctx).problems).toEqual([
      `skill "${TRIAGE}" was added: an addition needs a minor version bump (1.0.0 -> 1.0.1) and a CHANGELOG.md line ` +
        'naming "triage-ticket"',
    ]);
    const ok = checkContract(contract('1.0.0'), contract('1.1.0', { skills: [skill()] }), {
      ...ctx,
      changelog: '- Skill `triage-ticket`.',
    });
    expect(ok).toEqual({ problems: [], notes: [`skill "${TRIAGE}" was added`] });
  });

  it('refuses a removed skill like a removed tool: deprecate it first, or a major bump', () => {
    const before = contract('1.0.0', { skills: [skill()] });
    expect(checkContract(before, contract('1.1.0', { skills: [] }), ctx).problems).toEqual([
      `skill "${TRIAGE}" was removed or renamed: deprecate it first (§17.2: a "[DEPRECATED until YYYY-MM-DD]" mark, ` +
        'recorded with npm run contract) or bump the major version',
    ]);
    expect(checkContract(before, contract('2.0.0'), ctx)).toEqual({
      problems: [],
      notes: [`skill "${TRIAGE}" was removed (allowed: major version bump 1.0.0 -> 2.0.0)`],
    });
  });

  it('records a deprecation mark in a skill description under skill:<uri>', () => {
    const marked = { ...skill(), description: '[DEPRECATED until 2027-09-01] Triage a desk ticket.' };
    expect(recordDeprecations(contract('1.2.0', { skills: [marked] }), undefined, '2027-06-01')).toEqual({
      [`skill:${TRIAGE}`]: { since: '1.2.0', date: '2027-06-01', removal: '2027-09-01' },
    });
  });

  it('notes, without failing, each file of a kept skill that changed, was added or was removed', () => {
    const REF = 'skill://triage-ticket/references/severity.md';
    const OLD = 'skill://triage-ticket/notes.md';
    const before = contract('1.0.0', { skills: [skill('sha256:aa', [{ uri: OLD, digest: 'sha256:cc' }])] });
    const after = contract('1.0.0', { skills: [skill('sha256:bb', [{ uri: REF, digest: 'sha256:dd' }])] });
    expect(checkContract(before, after, ctx)).toEqual({
      problems: [],
      notes: [
        `skill "${TRIAGE}": file "${TRIAGE}" changed (sha256:aa -> sha256:bb)`,
        `skill "${TRIAGE}": file "${REF}" was added (sha256:dd)`,
        `skill "${TRIAGE}": file "${OLD}" was removed`,
      ],
    });
  });
});

describe('deprecation records', () => {
  it('reads the deadline of a mark', () => {
    expect(deprecationMark('[DEPRECATED until 2027-03-01; use find_ticket] Reads.')).toEqual({ removal: '2027-03-01' });
    expect(deprecationMark('Reads a ticket.')).toBeUndefined();
  });

  it('records a new mark with this version and today, and keeps an earlier record', () => {
    const marked = withTool(contract('1.2.0'), (t) => (t.description = '[DEPRECATED until 2027-09-01] Reads.'));
    expect(recordDeprecations(marked, undefined, '2027-06-01')).toEqual({
      'tool:get_ticket': { since: '1.2.0', date: '2027-06-01', removal: '2027-09-01' },
    });
    const earlier = contract('1.1.0', {
      deprecations: { 'tool:get_ticket': { since: '1.1.0', date: '2027-01-01', removal: '2027-09-01' } },
    });
    expect(recordDeprecations(marked, earlier, '2027-06-01')['tool:get_ticket'].since).toBe('1.1.0');
  });
});

import { renderToolSafety } from './tool-description.renderer';

describe('renderToolSafety', () => {
  const base = { description: 'Does a thing.' };

  it('says a read-only tool has no side effects, and leaves its annotations as given', () => {
    const r = renderToolSafety({ ...base, annotations: { readOnlyHint: true } }, 'look', 'svc', 30_000);
    expect(r.description).toBe('Does a thing.\n\nRead-only: no side effects.');
    expect(r.annotations).toEqual({ readOnlyHint: true });
  });

  it('marks a tool whose changes stay inside the call as not open-world, unless its annotations say otherwise', () => {
    const local = { ...base, mutation: { risk: 'low' as const, sideEffects: 'Resets a counter.', external: false } };
    expect(renderToolSafety(local, 'reset', 'svc', 30_000).annotations).toEqual({
      readOnlyHint: false,
      riskLevel: 'low',
      openWorldHint: false,
    });
    const said = renderToolSafety({ ...local, annotations: { openWorldHint: true } }, 'reset', 'svc', 30_000);
    expect(said.annotations.openWorldHint).toBe(true);
  });

  it('documents idempotency, retry, timeout, audit and approval of a tool with external effects', () => {
    const r = renderToolSafety(
      {
        ...base,
        mutation: {
          risk: 'high',
          sideEffects: 'Sends money.',
          idempotency: { key: 'transferId' },
          retry: 'safe with the same transferId.',
          approval: 'the account owner.',
        },
      },
      'send_money',
      'bank',
      20_000,
    );
    expect(r.annotations).toEqual({ readOnlyHint: false, riskLevel: 'high' });
    expect(r.description.split('\n').slice(2)).toEqual([
      'Risk: high.',
      'Side effects: Sends money.',
      'Idempotency: repeat calls with the same `transferId` have no further effect.',
      'Retry: safe with the same transferId.',
      'Timeout: the call is aborted after 20 s and reported as a timeout; the change may or may not have been applied, so check before retrying.',
      'Audit event: bank.tool.send_money.',
      'Approval: the account owner.',
    ]);
    expect(r.safety).toMatchObject({ external: true, audit: 'bank.tool.send_money' });
  });
});

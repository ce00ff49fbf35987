import { joinBatchAnswer, mapBounded } from './batch-answer';

describe('mapBounded', () => {
  it('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });
});

describe('joinBatchAnswer', () => {
  const body = (id: number, size: number) => ({
    body: JSON.stringify({ jsonrpc: '2.0', id, result: 'x'.repeat(size) }),
  });

  it('joins the answered items and leaves out the unanswered ones', () => {
    const answer = joinBatchAnswer([{ id: 1 }, {}, { id: 2 }], [body(1, 1), undefined, body(2, 1)], 1000);
    expect(JSON.parse(answer!.body).map((a: { id: number }) => a.id)).toEqual([1, 2]);
    expect(joinBatchAnswer([{}], [undefined], 1000)).toBeUndefined();
  });

  it('replaces what goes past the bound with -32005 for the same id', () => {
    const items = [{ id: 1 }, { id: 2 }, { id: 3 }];
    const answer = JSON.parse(joinBatchAnswer(items, [body(1, 100), body(2, 100), body(3, 10)], 250, 'r-1')!.body);
    expect(answer[0].result).toHaveLength(100);
    expect(answer[1]).toMatchObject({
      id: 2,
      error: { code: -32005, data: { reason: 'batch_response_too_large', maxBytes: 250, requestId: 'r-1' } },
    });
    expect(answer[2]).toMatchObject({ id: 3, error: { code: -32005 } });
  });
});

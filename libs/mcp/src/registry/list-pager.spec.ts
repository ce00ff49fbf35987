import { ListPager } from './list-pager';

describe('ListPager', () => {
  const items = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}` }));

  it('serves stable pages with opaque cursors, the last page without nextCursor', () => {
    const pager = new ListPager('tools', 2, () => items);
    const p1 = JSON.parse(pager.page(undefined));
    const p2 = JSON.parse(pager.page(p1.nextCursor));
    const p3 = JSON.parse(pager.page(p2.nextCursor));
    expect([...p1.tools, ...p2.tools, ...p3.tools].map((t: { name: string }) => t.name)).toEqual([
      't0',
      't1',
      't2',
      't3',
      't4',
    ]);
    expect(p3.nextCursor).toBeUndefined();
    expect(pager.page(undefined)).toBe(pager.page(undefined));
  });

  it('refuses forged, foreign and stale cursors with -32602', () => {
    const pager = new ListPager('tools', 2, () => items);
    const next = JSON.parse(pager.page(undefined)).nextCursor;
    for (const bad of [
      '',
      'garbage',
      Buffer.from('prompts:0:1').toString('base64url'),
      Buffer.from('tools:0:99').toString('base64url'),
      7,
      'x'.repeat(500),
    ]) {
      expect(() => pager.page(bad)).toThrow(expect.objectContaining({ code: -32602 }));
    }
    pager.invalidate();
    expect(() => pager.page(next)).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it('serves one empty page for an empty list', () => {
    expect(JSON.parse(new ListPager('prompts', 10, () => []).page(undefined))).toEqual({ prompts: [] });
  });
});

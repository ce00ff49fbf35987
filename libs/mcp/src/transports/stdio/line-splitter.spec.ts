import { LineSplitter } from './line-splitter';

describe('LineSplitter', () => {
  const run = (limit: number, chunks: string[]) => {
    const lines: string[] = [];
    let tooLong = 0;
    const s = new LineSplitter(
      limit,
      (l) => lines.push(l),
      () => tooLong++,
    );
    for (const c of chunks) s.push(Buffer.from(c));
    s.end();
    return { lines, tooLong };
  };

  it('joins lines split across chunks and strips CR', () => {
    expect(run(100, ['{"a":', '1}\r\n{"b"', ':2}\n', '{"c":3}'])).toEqual({
      lines: ['{"a":1}', '{"b":2}', '{"c":3}'],
      tooLong: 0,
    });
  });

  it('drops a line over the limit once, then carries on with the next line', () => {
    expect(run(5, ['123', '456', '789\nok\n'])).toEqual({ lines: ['ok'], tooLong: 1 });
    expect(run(5, ['12345\n123456\n'])).toEqual({ lines: ['12345'], tooLong: 1 });
  });

  it('keeps multi-byte characters intact across chunk boundaries', () => {
    const bytes = Buffer.from('"é"\n');
    const lines: string[] = [];
    const s = new LineSplitter(
      100,
      (l) => lines.push(l),
      () => undefined,
    );
    s.push(bytes.subarray(0, 2));
    s.push(bytes.subarray(2));
    expect(lines).toEqual(['"é"']);
  });
});

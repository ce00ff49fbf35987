import { limitResultSize } from './result-size';
import { SchemaCompiler } from '../registry/schema-compiler';

describe('limitResultSize', () => {
  const compiler = new SchemaCompiler();

  it('leaves a result at the limit unchanged and truncates one over it with a visible marker', () => {
    const fits = { content: [{ type: 'text', text: 'x'.repeat(936) }] };
    expect(limitResultSize(fits, 1000, 't')).toBe(fits);
    const over = limitResultSize({ content: [{ type: 'text', text: 'x'.repeat(5000) }] }, 1000, 't');
    expect(JSON.stringify(over).length).toBeLessThan(1200);
    expect((over.content as { text: string }[]).at(-1)!.text).toMatch(/^\[truncated: /);
  });

  it('bounds structured content too, flagging it when the output schema allows the flag', () => {
    const big = { blob: 'y'.repeat(5000), id: 'a' };
    const result = { content: [{ type: 'text', text: JSON.stringify(big) }], structuredContent: big };
    const open = limitResultSize(result, 1000, 't', compiler.compile({ type: 'object' }));
    expect(JSON.stringify(open).length).toBeLessThan(1300);
    expect(open.structuredContent).toMatchObject({ id: 'a', truncated: true });
    const closed = compiler.compile({
      type: 'object',
      properties: { blob: { type: 'string' }, id: { type: 'string' } },
      additionalProperties: false,
    });
    const strict = limitResultSize(result, 1000, 't', closed);
    expect(strict.structuredContent).not.toHaveProperty('truncated');
    expect(closed(strict.structuredContent)).toBe(true);
    expect((strict.content as { text: string }[]).at(-1)!.text).toMatch(/^\[truncated: /);
  });
});

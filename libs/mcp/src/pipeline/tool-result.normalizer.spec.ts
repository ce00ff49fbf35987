import { normaliseToolResult } from './tool-result.normalizer';
import { SchemaCompiler } from '../registry/schema-compiler';
import { ToolEntry } from '../registry/registry-entries';

const compiler = new SchemaCompiler();
const tool = (output?: Record<string, unknown>) =>
  ({ name: 't', validateOutput: output ? compiler.compile(output) : undefined }) as unknown as ToolEntry;

describe('normaliseToolResult', () => {
  it('turns a string into text content and nothing into empty content', () => {
    expect(normaliseToolResult('hi', tool())).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(normaliseToolResult(undefined, tool())).toEqual({ content: [] });
    expect(normaliseToolResult(42, tool())).toEqual({ content: [{ type: 'text', text: '42' }] });
  });

  it('keeps content items and full CallToolResults', () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    expect(normaliseToolResult(image, tool())).toEqual({ content: [image] });
    expect(normaliseToolResult([image, { type: 'text', text: 'x' }], tool())).toEqual({
      content: [image, { type: 'text', text: 'x' }],
    });
    const full = { content: [{ type: 'text', text: 'no' }], isError: true };
    expect(normaliseToolResult(full, tool())).toEqual(full);
  });

  it('turns a plain object into structuredContent mirrored as JSON text', () => {
    expect(normaliseToolResult({ a: 1 }, tool())).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
  });

  it('checks structured output against outputSchema', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
    expect(normaliseToolResult({ a: 1 }, tool(schema)).structuredContent).toEqual({ a: 1 });
    expect(() => normaliseToolResult({ a: 'x' }, tool(schema))).toThrow(/does not match its outputSchema: a: type/);
    expect(() => normaliseToolResult('text only', tool(schema))).toThrow(/no structuredContent/);
    expect(normaliseToolResult({ content: [{ type: 'text', text: 'bad' }], isError: true }, tool(schema)).isError).toBe(
      true,
    );
  });
});

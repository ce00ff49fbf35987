import { renderToolSafety } from '../registry/tool-description.renderer';
import { McpToolOptions } from '../decorators/decorator-options.interface';
import { exampleArguments } from './argument-example.factory';
import { riskLevel, toolView } from './tool-view.factory';

/** A definition as the registry builds it (tool-entry.factory.ts), from decorator options. */
function definitionOf(options: McpToolOptions, inputSchema: unknown = { type: 'object', properties: {} }) {
  const { description, annotations, safety } = renderToolSafety(options, 'a_tool', 'shop', 30_000);
  return {
    name: 'a_tool',
    description,
    inputSchema,
    annotations,
    ...(safety ? { _meta: { 'corporate/tool-safety': safety } } : {}),
  };
}
const mutation = (risk: 'low' | 'medium' | 'high') => ({ risk, sideEffects: 'Sends an email.', external: false });

describe('toolView', () => {
  it('reads the risk level: read-only, low, medium, high', () => {
    expect(riskLevel(definitionOf({ description: 'Reads.', annotations: { readOnlyHint: true } }))).toBe('read-only');
    for (const risk of ['low', 'medium', 'high'] as const) {
      expect(riskLevel(definitionOf({ description: 'Writes.', mutation: mutation(risk) }))).toBe(risk);
    }
    expect(riskLevel({ name: 'x', annotations: {} })).toBe('unspecified');
  });

  it('shows the team description without the appended safety text, plus side effects and sorted scopes', () => {
    const view = toolView({
      name: 'a_tool',
      definition: definitionOf({ description: 'Sends a receipt.', mutation: mutation('medium') }),
      requiredScopes: ['z:write', 'a:read'],
    });
    expect(view).toMatchObject({
      description: 'Sends a receipt.',
      risk: 'medium',
      sideEffects: 'Sends an email.',
      scopes: ['a:read', 'z:write'],
    });
    expect(
      toolView({ name: 'r', definition: definitionOf({ description: 'Reads.', annotations: { readOnlyHint: true } }) })
        .description,
    ).toBe('Reads.');
  });

  it('prefills the arguments with the required properties of the input schema', () => {
    const schema = {
      type: 'object',
      required: ['id', 'count', 'mode', 'note', 'flag', 'tags', 'address'],
      properties: {
        id: { type: 'string', examples: ['HD-1'] },
        count: { type: 'integer', minimum: 1 },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        note: { type: 'string' },
        flag: { type: 'boolean' },
        tags: { type: 'array' },
        address: { type: 'object', required: ['city'], properties: { city: { type: 'string', default: 'Lyon' } } },
        optional: { type: 'string' },
      },
    };
    expect(exampleArguments(schema)).toEqual({
      id: 'HD-1',
      count: 1,
      mode: 'fast',
      note: '',
      flag: false,
      tags: [],
      address: { city: 'Lyon' },
    });
    expect(
      JSON.parse(
        toolView({ name: 'e', definition: definitionOf({ description: 'E.' }, { type: 'object', properties: {} }) })
          .example,
      ),
    ).toEqual({});
  });
});

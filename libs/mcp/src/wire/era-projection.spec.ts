import { projectContent, projectDefinition, projectToolResult } from './era-projection';

const tool = {
  name: 't',
  title: 'T',
  description: 'd',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true },
  icons: [{ src: 'x' }],
  _meta: { a: 1 },
};

describe('era projection', () => {
  it('gives each revision only the tool fields it defines', () => {
    expect(projectDefinition('tools', tool, '2025-11-25')).toBe(tool);
    expect(Object.keys(projectDefinition('tools', tool, '2025-06-18'))).toEqual([
      'name',
      'title',
      'description',
      'inputSchema',
      'outputSchema',
      'annotations',
      '_meta',
    ]);
    expect(Object.keys(projectDefinition('tools', tool, '2025-03-26'))).toEqual([
      'name',
      'description',
      'inputSchema',
      'annotations',
    ]);
    expect(Object.keys(projectDefinition('tools', tool, '2024-11-05'))).toEqual(['name', 'description', 'inputSchema']);
  });

  it('strips argument titles from prompts for old clients', () => {
    const prompt = { name: 'p', title: 'P', description: 'd', arguments: [{ name: 'a', title: 'A', required: true }] };
    expect(projectDefinition('prompts', prompt, '2025-03-26')).toEqual({
      name: 'p',
      description: 'd',
      arguments: [{ name: 'a', required: true }],
    });
  });

  it('turns resource links into text and drops structuredContent before 2025-06-18', () => {
    const link = { type: 'resource_link', uri: 'svc://x', name: 'x' };
    expect(projectContent(link, '2025-06-18')).toBe(link);
    expect(projectContent(link, '2025-03-26')).toEqual({ type: 'text', text: 'x: svc://x' });
    expect(projectContent({ type: 'audio', data: 'AA', mimeType: 'audio/wav' }, '2024-11-05')).toEqual({
      type: 'text',
      text: '[audio content (audio/wav) needs a newer client]',
    });
    expect(projectToolResult({ content: [link], structuredContent: { a: 1 } }, '2024-11-05')).toEqual({
      content: [{ type: 'text', text: 'x: svc://x' }],
    });
  });
});

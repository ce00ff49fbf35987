import { addTableRow } from './readme.rule';

describe('addTableRow', () => {
  const row = '| `find_order` | none | TODO: say what it does. |';
  const table = '| Tool | Scopes | What it does |\n| --- | --- | --- |\n| `get_greeting` | none | Greets. |\n';

  it('appends the row after the last row of the Tools table', () => {
    const text = `# shop\n\n## Tools\n\n${table}\n## Limits\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n`;
    expect(addTableRow(text, 'Tools', row)).toBe(
      `# shop\n\n## Tools\n\n${table}${row}\n\n## Limits\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n`,
    );
  });

  it('fills a Tools table that has no rows yet, even as the last section', () => {
    expect(addTableRow('## Tools\n\n| Tool | What |\n| :-- | --: |', 'Tools', row)).toBe(
      `## Tools\n\n| Tool | What |\n| :-- | --: |\n${row}`,
    );
  });

  it('fills the table of the section it is given, not the first table of the file', () => {
    const prompts = '| Prompt or resource | Kind | What it does |\n| --- | --- | --- |\n';
    const text = `## Tools\n\n${table}\n## Prompts and resources\n\n${prompts}`;
    expect(addTableRow(text, 'Prompts and resources', '| `x` | prompt | TODO. |')).toBe(
      `## Tools\n\n${table}\n## Prompts and resources\n\n${prompts}| \`x\` | prompt | TODO. |\n`,
    );
  });

  it('leaves a README without the section or without a table in it alone', () => {
    expect(addTableRow('# shop\n\n## Run\n\n| a |\n| --- |\n', 'Tools', row)).toBeUndefined();
    expect(addTableRow('# shop\n\n## Tools\n\nNone yet.\n\n## Run\n\n| a |\n| --- |\n', 'Tools', row)).toBeUndefined();
    expect(addTableRow('## Prompts and resources\n\nSee agent/.\n', 'Prompts and resources', row)).toBeUndefined();
  });
});

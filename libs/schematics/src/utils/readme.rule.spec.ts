import { addToolRow } from './readme.rule';

describe('addToolRow', () => {
  const row = '| `find_order` | none | TODO: say what it does. |';
  const table = '| Tool | Scopes | What it does |\n| --- | --- | --- |\n| `get_greeting` | none | Greets. |\n';

  it('appends the row after the last row of the Tools table', () => {
    const text = `# shop\n\n## Tools\n\n${table}\n## Limits\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n`;
    expect(addToolRow(text, row)).toBe(
      `# shop\n\n## Tools\n\n${table}${row}\n\n## Limits\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n`,
    );
  });

  it('fills a Tools table that has no rows yet, even as the last section', () => {
    expect(addToolRow('## Tools\n\n| Tool | What |\n| :-- | --: |', row)).toBe(
      `## Tools\n\n| Tool | What |\n| :-- | --: |\n${row}`,
    );
  });

  it('leaves a README without a Tools section or without a table in it alone', () => {
    expect(addToolRow('# shop\n\n## Run\n\n| a |\n| --- |\n', row)).toBeUndefined();
    expect(addToolRow('# shop\n\n## Tools\n\nNone yet.\n\n## Run\n\n| a |\n| --- |\n', row)).toBeUndefined();
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What the generator writes is a team's code from then on: it imports the platform through its public entry points
 * only (`@app/mcp`, `@app/mcp/<name>` for a libs/mcp/src/<name>.entry.ts, `@app/mcp-testing`), never a library's
 * files, which may move. ESLint does not read the templates (they are not TypeScript until rendered).
 */
const FILES = resolve(__dirname, '../files');
const MCP_SRC = resolve(__dirname, '../../mcp/src');

function templates(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? templates(join(dir, entry.name))
      : entry.name.endsWith('.ts.template')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('generator templates', () => {
  it('import the libraries through their public entry points only', () => {
    const entryPoints = readdirSync(MCP_SRC)
      .filter((file) => file.endsWith('.entry.ts'))
      .map((file) => `@app/mcp/${file.slice(0, -'.entry.ts'.length)}`);
    const allowed = new Set(['@app/mcp', '@app/mcp-testing', ...entryPoints]);
    const found = templates(FILES).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)]
        .map(([, spec]) => spec)
        .filter((spec) => spec.startsWith('@app/') || /(^|\/)libs\//.test(spec))
        .map((spec) => ({ file: file.slice(FILES.length + 1), spec })),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter(({ spec }) => !allowed.has(spec))).toEqual([]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBuiltView, VIEW_MAX_BYTES } from './built-view.loader';

describe('loadBuiltView', () => {
  const root = mkdtempSync(join(tmpdir(), 'views-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads <root>/<view>.html', () => {
    writeFileSync(join(root, 'board.html'), '<!doctype html><p>board</p>');
    expect(loadBuiltView(root, 'board')).toEqual({ html: '<!doctype html><p>board</p>' });
  });

  it('says what to do when the view is not built or no folder is configured', () => {
    expect(loadBuiltView(root, 'missing')).toEqual({
      problem: expect.stringMatching(/view "missing" is not built: .*missing\.html does not exist\. `npm run build/),
    });
    expect(loadBuiltView(undefined, 'board')).toEqual({
      problem: expect.stringMatching(/needs McpModule\.forRoot\(\{ views: \{ root \} \}\) \(or MCP_VIEWS_DIR\)/),
    });
  });

  it.each(['../secret', 'a/b', '..', '.hidden', 'with space', ''])('refuses %j as a view name', (name) => {
    expect(loadBuiltView(root, name)).toEqual({ problem: expect.stringMatching(/is not a view folder's name/) });
  });

  it('refuses a view over the size bound', () => {
    writeFileSync(join(root, 'huge.html'), Buffer.alloc(VIEW_MAX_BYTES + 1, 'a'));
    expect(loadBuiltView(root, 'huge')).toEqual({
      problem: expect.stringMatching(/is 4194305 bytes; a view is at most/),
    });
  });
});

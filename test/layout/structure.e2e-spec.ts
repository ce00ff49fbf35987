import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The structure figures of docs/structure.md, within their bounds: no two folders of libs/mcp/src importing each
 * other, no import up the floors, at most 50 names in `@app/mcp`, no library file over 300 lines, no function of the
 * platform over 60, no import into another library's insides. `node scripts/structure.mjs --list` names each item.
 */
describe('the structure figures (scripts/structure.mjs)', () => {
  it('are all within their bounds', () => {
    const run = spawnSync(process.execPath, [join(__dirname, '../../scripts/structure.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter((line) => line.startsWith('OVER'))).toEqual([]);
    expect(run.status).toBe(0);
  });
});

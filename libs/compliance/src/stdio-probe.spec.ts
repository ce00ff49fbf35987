import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initializeOverStdio } from './stdio-probe';

describe('initializeOverStdio', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stdio-probe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const server = (name: string, body: string) => {
    writeFileSync(join(dir, name), body);
    return join(dir, name);
  };
  const env = { ...process.env, NODE_OPTIONS: '' };

  it('reads the answer to initialize from the first line of stdout', async () => {
    const entry = server(
      'good.js',
      `process.stdin.once('data', (l) => { const { id } = JSON.parse(l);
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { serverInfo: { name: 's', version: '1.0.0' } } }) + '\\n'); });`,
    );
    expect(await initializeOverStdio(entry, dir, env)).toEqual({
      message: { jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 's', version: '1.0.0' } } },
    });
  });

  it('says what is wrong when stdout carries something else, or the server exits', async () => {
    const chatty = server('chatty.js', `console.log('starting…'); setInterval(() => {}, 1000);`);
    expect((await initializeOverStdio(chatty, dir, env)).problem).toMatch(
      /first line is not a JSON-RPC message: starting/,
    );
    const gone = server('gone.js', 'process.exit(3);');
    expect((await initializeOverStdio(gone, dir, env)).problem).toBe('the server exited (3) before answering');
  });
});

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogBatchDestination } from './log-batch.destination';

describe('LogBatchDestination', () => {
  let dir: string;
  let fd: number;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-log-batch-'));
    file = join(dir, 'app.log');
    fd = openSync(file, 'a');
  });
  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const written = () => readFileSync(file, 'utf8');
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((ok) => setTimeout(ok, 5));
  };

  it('keeps lines until a block is full, then writes the block in order', async () => {
    const batch = LogBatchDestination.forFd(fd, 100, 60_000);
    batch.write('a'.repeat(40) + '\n');
    batch.write('b'.repeat(40) + '\n');
    await new Promise((ok) => setTimeout(ok, 20));
    expect(written()).toBe('');
    batch.write('c'.repeat(40) + '\n');
    await until(() => written().length > 0);
    expect(written()).toBe(`${'a'.repeat(40)}\n${'b'.repeat(40)}\n${'c'.repeat(40)}\n`);
  });

  it('writes what waits at least every interval', async () => {
    const batch = LogBatchDestination.forFd(fd, 1_000_000, 30);
    batch.write('{"msg":"quiet"}\n');
    expect(written()).toBe('');
    await until(() => written().length > 0);
    expect(written()).toBe('{"msg":"quiet"}\n');
  });

  it('writes every line whole and in order, multi-byte characters included, across many blocks', async () => {
    const batch = LogBatchDestination.forFd(fd, 256, 60_000);
    const lines = Array.from({ length: 500 }, (_, i) => `{"n":${i},"text":"é ✓ 🙂 ${'x'.repeat(i % 50)}"}\n`);
    for (const line of lines) batch.write(line);
    batch.flushSync();
    await until(() => written().length === Buffer.byteLength(lines.join('')));
    expect(written()).toBe(lines.join(''));
  });

  it('flushSync writes everything collected before it returns', () => {
    const batch = LogBatchDestination.forFd(fd, 1_000_000, 60_000);
    batch.write('one\n');
    batch.write('two\n');
    batch.flushSync();
    expect(written()).toBe('one\ntwo\n');
  });

  it('writes out what waits when the process exits without a shutdown (its exit hook)', () => {
    const batch = LogBatchDestination.forFd(fd, 1_000_000, 60_000);
    batch.write('last words\n');
    const hook = process.listeners('exit').find((l) => l.name === 'flushAllOnExit');
    expect(hook).toBeDefined();
    (hook as (code: number) => void)(0);
    expect(written()).toBe('last words\n');
  });
});

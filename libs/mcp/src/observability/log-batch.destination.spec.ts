import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogBatchDestination } from './log-batch.destination';

describe('LogBatchDestination', () => {
  let dir: string;
  let fd: number;
  let file: string;
  // Every batch made here is closed after its test: its interval must not write to a descriptor closed (and perhaps
  // reused) by then.
  let batches: LogBatchDestination[] = [];
  const forFd = (...args: Parameters<typeof LogBatchDestination.forFd>) => {
    const batch = LogBatchDestination.forFd(...args);
    batches.push(batch);
    return batch;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-log-batch-'));
    file = join(dir, 'app.log');
    fd = openSync(file, 'a');
  });
  afterEach(() => {
    for (const batch of batches) batch.close();
    batches = [];
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const written = () => readFileSync(file, 'utf8');
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((ok) => setTimeout(ok, 5));
  };

  it('keeps lines until a block is full, then writes the block in order', async () => {
    const batch = forFd(fd, 100, 60_000);
    batch.write('a'.repeat(40) + '\n');
    batch.write('b'.repeat(40) + '\n');
    await new Promise((ok) => setTimeout(ok, 20));
    expect(written()).toBe('');
    batch.write('c'.repeat(40) + '\n');
    await until(() => written().length > 0);
    expect(written()).toBe(`${'a'.repeat(40)}\n${'b'.repeat(40)}\n${'c'.repeat(40)}\n`);
  });

  it('writes what waits at least every interval', async () => {
    const batch = forFd(fd, 1_000_000, 30);
    batch.write('{"msg":"quiet"}\n');
    expect(written()).toBe('');
    await until(() => written().length > 0);
    expect(written()).toBe('{"msg":"quiet"}\n');
  });

  it('writes every line whole and in order, multi-byte characters included, across many blocks', async () => {
    const batch = forFd(fd, 256, 60_000);
    const lines = Array.from({ length: 500 }, (_, i) => `{"n":${i},"text":"é ✓ 🙂 ${'x'.repeat(i % 50)}"}\n`);
    for (const line of lines) batch.write(line);
    batch.flushSync();
    await until(() => Buffer.byteLength(written()) === Buffer.byteLength(lines.join('')));
    expect(written()).toBe(lines.join(''));
  });

  it('flushSync writes everything collected before it returns', () => {
    const batch = forFd(fd, 1_000_000, 60_000);
    batch.write('one\n');
    batch.write('two\n');
    batch.flushSync();
    expect(written()).toBe('one\ntwo\n');
  });

  it('writes out what waits when the process exits without a shutdown (its exit hook)', () => {
    const batch = forFd(fd, 1_000_000, 60_000);
    batch.write('last words\n');
    const hook = process.listeners('exit').find((l) => l.name === 'flushAllOnExit');
    expect(hook).toBeDefined();
    (hook as (code: number) => void)(0);
    expect(written()).toBe('last words\n');
  });

  it('writes a full block to a file at once, in the call that filled it (no thread-pool trip)', () => {
    const batch = forFd(fd, 100, 60_000);
    batch.write('a'.repeat(60) + '\n');
    expect(written()).toBe('');
    batch.write('b'.repeat(60) + '\n');
    expect(written()).toBe(`${'a'.repeat(60)}\n${'b'.repeat(60)}\n`);
  });

  it('writes to a pipe asynchronously: a reader that is not reading never stalls the caller, and gets it all in order', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    // Non-blocking, so that a regression to synchronous writes fails this test (EAGAIN, lines dropped, a stalled
    // caller) instead of hanging the suite on a full pipe.
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      const batch = forFd(writer, 4_096, 60_000);
      // 256 KB: four times what a Linux pipe holds, with nobody reading yet.
      const lines = Array.from({ length: 256 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(1_019)}\n`);
      const started = performance.now();
      for (const line of lines) batch.write(line);
      expect(performance.now() - started).toBeLessThan(250);
      batch.write('tail\n');
      await new Promise((ok) => setTimeout(ok, 50)); // only whole blocks go out; the tail waits (interval 60 s)
      let got = '';
      const chunk = Buffer.alloc(65_536);
      const expected = lines.join('');
      for (let i = 0; i < 2_000 && got.length < expected.length; i++) {
        try {
          const n = readSync(reader, chunk);
          got += chunk.toString('utf8', 0, n);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          await new Promise((ok) => setTimeout(ok, 5));
        }
      }
      expect(got).toBe(expected);
    } finally {
      batches.pop()!.close();
      closeSync(writer);
      closeSync(reader);
    }
  });

  it('loses the block, not the server, when the reader of its pipe is gone (EPIPE), and gives the pipe up', async () => {
    const fifo = join(dir, 'gone');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(reader);
    const errors: string[] = [];
    try {
      const batch = forFd(writer, 10, 60_000, { onError: (e) => errors.push((e as NodeJS.ErrnoException).code ?? '') });
      batch.write('first block, lost\n');
      await until(() => errors.length > 0);
      expect(errors[0]).toBe('EPIPE');
      batch.write('next block, dropped\n');
      batch.close(); // nothing is tried on the pipe again: no second error
      await new Promise((ok) => setTimeout(ok, 20));
      expect(errors).toEqual(['EPIPE']);
    } finally {
      batches = [];
      closeSync(writer);
    }
  });

  it('stops its interval on close: nothing is written after it', async () => {
    const batch = forFd(fd, 1_000_000, 10);
    batch.write('before\n');
    batch.close();
    expect(written()).toBe('before\n');
    batch.write('after\n');
    await new Promise((ok) => setTimeout(ok, 50));
    expect(written()).toBe('before\n');
  });

  /** A FIFO whose reader never reads, both ends non-blocking (so nothing here can hang the suite). */
  const stuckPipe = () => {
    const fifo = join(dir, `stuck-${batches.length}`);
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    return { writer, close: () => (closeSync(writer), closeSync(reader)) };
  };

  it('drops blocks past its queue bound when the reader stops reading, and says so', async () => {
    const pipe = stuckPipe();
    const errors: string[] = [];
    try {
      const batch = forFd(pipe.writer, 1_024, 60_000, {
        onError: (e) => errors.push((e as NodeJS.ErrnoException).code ?? ''),
        maxQueuedBytes: 256 * 1_024,
      });
      // 1 MB into a pipe that holds 64 KB, with at most 256 KB queued behind it.
      for (let i = 0; i < 1_024; i++) batch.write(`${'x'.repeat(1_023)}\n`);
      expect(errors).toContain('EDROPPED');
    } finally {
      batches = [];
      pipe.close();
    }
  });

  it('gives up a shutdown flush to a full pipe within seconds instead of hanging', () => {
    const pipe = stuckPipe();
    const errors: string[] = [];
    try {
      const batch = forFd(pipe.writer, 4_096, 60_000, {
        onError: (e) => errors.push((e as NodeJS.ErrnoException).code ?? ''),
      });
      for (let i = 0; i < 200; i++) batch.write(`${'y'.repeat(1_023)}\n`);
      batch.write('still collected\n');
      const started = performance.now();
      batch.close();
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(errors).toContain('EAGAIN');
    } finally {
      batches = [];
      pipe.close();
    }
  });
});

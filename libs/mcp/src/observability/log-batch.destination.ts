import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import SonicBoom, { SonicBoomOpts } from 'sonic-boom';

/** Every batch still alive, written out when the process exits by a path that skips Nest's shutdown. */
const live = new Set<WeakRef<LogBatchDestination>>();
let exitHooked = false;

function flushAllOnExit(): void {
  for (const ref of live) ref.deref()?.flushSync();
}

/** @internal */
export interface LogBatchOptions {
  /** Told of a failed or dropped write; by default, one line on stderr the first time. */
  onError?: (error: Error) => void;
  /** Bytes queued for a slow pipe or socket reader beyond which blocks are dropped (default 16 MiB). */
  maxQueuedBytes?: number;
}

/**
 * A buffered log destination: pino's lines are collected as they come and written as one `Buffer` per block of about
 * `blockBytes`, and at least every `flushMs` (to a pipe or socket through sonic-boom, which does the asynchronous
 * writes, partial writes and retries). Why not sonic-boom's own buffering: given strings, it measures the pending
 * block on every line (`Buffer.byteLength` of a string that grows until it is written) and encodes every written block
 * a second time when the write completes; collected here, a line costs an array push and a block is encoded once.
 *
 * A regular file (or `/dev/null`) takes each block with one synchronous `write(2)`: it never waits on a reader, and
 * an asynchronous write costs a trip through libuv's thread pool per block (two thread switches, measured at about a
 * sixth of a production call's throughput on one core). A pipe, socket or terminal (a container's stdout) keeps
 * sonic-boom's asynchronous writes, so a slow reader never stalls the event loop.
 * @internal
 */
export class LogBatchDestination {
  private lines: string[] = [];
  private pending = 0;
  /** The pipe or socket failed: lines are dropped (sonic-boom's synchronous flush would retry it forever). */
  private dropping = false;
  private readonly timer: NodeJS.Timeout;
  private readonly ref: WeakRef<LogBatchDestination>;

  private constructor(
    /** Asynchronous writes, or undefined to write each block to `fd` synchronously. */
    private sink: SonicBoom | undefined,
    /** The descriptor written to: what is still collected at a synchronous flush is written there directly. */
    private readonly fd: number,
    private readonly blockBytes: number,
    flushMs: number,
    private readonly onError: (error: Error) => void,
  ) {
    // The timer and the exit list hold the batch weakly: a logger dropped with its app is collected, timer and all.
    const ref = (this.ref = new WeakRef(this));
    live.add(ref);
    const timer = (this.timer = setInterval(() => {
      const self = ref.deref();
      if (self) return self.push();
      clearInterval(timer);
      live.delete(ref);
    }, flushMs));
    timer.unref();
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flushAllOnExit);
    }
    // EAGAIN/EBUSY past the retries: sonic-boom keeps the block and tries again on the next write. Anything else
    // (EPIPE: the reader is gone; EBADF) will not get better: give the destination up.
    sink?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EAGAIN' || error.code === 'EBUSY') return;
      ref.deref()?.broken();
      onError(error);
    });
    // A reader that stopped reading: blocks past the queue's bound are dropped, not queued without limit.
    sink?.on('drop', () => onError(Object.assign(new Error('the reader is not keeping up'), { code: 'EDROPPED' })));
  }

  /**
   * A batch writing to `fd` (a file descriptor already open): directly when it is a file, else through sonic-boom.
   * A failed write is passed to `onError`, which by default says so once on stderr; it never becomes an uncaught
   * exception that would end the server. A pipe or socket that failed (its reader gone: `EPIPE`) is given up: later
   * lines are dropped, and a shutdown flush does not wait on it.
   */
  static forFd(
    fd: number,
    blockBytes: number,
    flushMs: number,
    { onError = reportOnce(fd), maxQueuedBytes = MAX_QUEUED_BYTES }: LogBatchOptions = {},
  ): LogBatchDestination {
    if (writesAtOnce(fd)) return new LogBatchDestination(undefined, fd, blockBytes, flushMs, onError);
    // sonic-boom 5's `maxWriteRetries` is not in its type declarations yet.
    const options: SonicBoomOpts & { maxWriteRetries: number } = {
      fd,
      sync: false,
      minLength: 0, // blocks arrive whole: each is written as soon as no write is running
      contentMode: 'buffer',
      maxLength: maxQueuedBytes,
      maxWriteRetries: 10, // a shutdown flush gives up after about a second on a full pipe (100 ms a retry)
    };
    const sink = new SonicBoom(options);
    return new LogBatchDestination(sink, fd, blockBytes, flushMs, onError);
  }

  write(line: string): void {
    if (this.dropping) return;
    this.lines.push(line);
    // Characters, not bytes: close enough to size a block, and free.
    this.pending += line.length;
    if (this.pending >= this.blockBytes) this.push();
  }

  /**
   * Writes out every collected line, synchronously (shutdown, exit): sonic-boom's queue first, then what is collected
   * here, straight to the descriptor (handed to sonic-boom, it would start one more asynchronous write). A block
   * already being written asynchronously is left to finish.
   */
  flushSync(): void {
    const block = this.take();
    try {
      this.sink?.flushSync();
    } catch {
      // Not open, or already closed: nothing of ours left to save.
    }
    if (block) this.writeNow(block);
  }

  /** Writes out what is collected and stops the interval; the descriptor stays open (it is the caller's). */
  close(): void {
    this.flushSync();
    clearInterval(this.timer);
    live.delete(this.ref);
  }

  private push(): void {
    const block = this.take();
    if (!block) return;
    if (!this.sink) return this.writeNow(block);
    try {
      // contentMode 'buffer' takes Buffers; sonic-boom's types only declare strings.
      this.sink.write(block as unknown as string);
    } catch {
      // A destroyed destination (closed at shutdown): the line has nowhere to go.
    }
  }

  private writeNow(block: Buffer): void {
    const error = writeAllSync(this.fd, block);
    if (error) this.onError(error);
  }

  private broken(): void {
    this.dropping = true;
    this.sink = undefined;
    this.lines = [];
    this.pending = 0;
  }

  /** The collected lines as one block (encoded once), or undefined; the collection starts afresh. */
  private take(): Buffer | undefined {
    if (this.lines.length === 0) return undefined;
    const block = Buffer.from(this.lines.length === 1 ? this.lines[0] : this.lines.join(''));
    this.lines = [];
    this.pending = 0;
    return block;
  }
}

/** A regular file, or a character device that is not a terminal (`/dev/null`): write(2) never waits on a reader. */
function writesAtOnce(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || (stat.isCharacterDevice() && !isatty(fd));
  } catch {
    return false;
  }
}

/** The default `onError`: one line on stderr for the first failed write (stderr itself may be what failed). */
function reportOnce(fd: number): (error: Error) => void {
  let told = false;
  return (error) => {
    if (told) return;
    told = true;
    if (fd === 2) return;
    try {
      const { code } = error as NodeJS.ErrnoException;
      writeSync(2, `log lines lost on descriptor ${fd}: ${code ? `${code}, ` : ''}${error.message}\n`);
    } catch {
      // stderr is gone too.
    }
  };
}

/** What may wait for a slow pipe or socket reader before blocks are dropped (seconds of a busy server's logs). */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/** The longest a synchronous flush waits on a destination that is not ready (a full pipe): lines, not a hang. */
const FLUSH_PATIENCE_MS = 1_000;
const nap = new Int32Array(new SharedArrayBuffer(4));

function writeAllSync(fd: number, block: Buffer): Error | undefined {
  let rest = block;
  const giveUpAt = Date.now() + FLUSH_PATIENCE_MS;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'EAGAIN' && code !== 'EBUSY') || Date.now() > giveUpAt) return error as Error;
      Atomics.wait(nap, 0, 0, 10);
    }
  }
  return undefined;
}

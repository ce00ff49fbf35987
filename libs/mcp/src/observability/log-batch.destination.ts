import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import SonicBoom from 'sonic-boom';

/** Every batch still alive, written out when the process exits by a path that skips Nest's shutdown. */
const live = new Set<WeakRef<LogBatchDestination>>();
let exitHooked = false;

function flushAllOnExit(): void {
  for (const ref of live) ref.deref()?.flushSync();
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

  constructor(
    /** Asynchronous writes, or undefined to write each block to `fd` synchronously. */
    private readonly sink: SonicBoom | undefined,
    /** The descriptor written to: what is still collected at a synchronous flush is written there directly. */
    private readonly fd: number,
    private readonly blockBytes: number,
    flushMs: number,
  ) {
    // The timer and the exit list hold the batch weakly: a logger dropped with its app is collected, timer and all.
    const ref = new WeakRef(this);
    live.add(ref);
    const timer = setInterval(() => {
      const self = ref.deref();
      if (self) return self.push();
      clearInterval(timer);
      live.delete(ref);
    }, flushMs);
    timer.unref();
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flushAllOnExit);
    }
  }

  /** A batch writing to `fd` (a file descriptor already open): directly when it is a file, else through sonic-boom. */
  static forFd(fd: number, blockBytes: number, flushMs: number): LogBatchDestination {
    // Blocks arrive whole: sonic-boom writes each as soon as no write is running (minLength 0).
    const sink = writesAtOnce(fd) ? undefined : new SonicBoom({ fd, sync: false, minLength: 0, contentMode: 'buffer' });
    return new LogBatchDestination(sink, fd, blockBytes, flushMs);
  }

  write(line: string): void {
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
    if (block) writeAllSync(this.fd, block);
  }

  private push(): void {
    const block = this.take();
    if (!block) return;
    if (!this.sink) return writeAllSync(this.fd, block);
    try {
      // contentMode 'buffer' takes Buffers; sonic-boom's types only declare strings.
      this.sink.write(block as unknown as string);
    } catch {
      // A destroyed destination (closed at shutdown): the line has nowhere to go.
    }
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

/** The longest a synchronous flush waits on a destination that is not ready (a full pipe): lines, not a hang. */
const FLUSH_PATIENCE_MS = 1_000;
const nap = new Int32Array(new SharedArrayBuffer(4));

function writeAllSync(fd: number, block: Buffer): void {
  let rest = block;
  const giveUpAt = Date.now() + FLUSH_PATIENCE_MS;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'EAGAIN' && code !== 'EBUSY') || Date.now() > giveUpAt) return;
      Atomics.wait(nap, 0, 0, 10);
    }
  }
}

/**
 * Splits a byte stream into lines without ever holding more than `limit` bytes of one line: a
 * longer line is dropped up to its newline and reported once through `onTooLong`.
 * @internal
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly limit: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.discarding && end > start) {
        this.size += end - start;
        if (this.size > this.limit) {
          this.discarding = true;
          this.parts = [];
          this.onTooLong();
        } else {
          this.parts.push(chunk.subarray(start, end));
        }
      }
      if (nl === -1) return;
      this.flush();
      start = nl + 1;
    }
  }

  /** The last line, when the stream ends without a newline. */
  end(): void {
    if (this.size > 0) this.flush();
  }

  private flush(): void {
    if (!this.discarding) this.onLine(Buffer.concat(this.parts).toString('utf8').replace(/\r$/, ''));
    this.parts = [];
    this.size = 0;
    this.discarding = false;
  }
}

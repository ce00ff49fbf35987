import { InvalidParamsError } from '../errors/mcp.error';

/**
 * Serialises a list into pages once, and serves them by opaque cursor. The cursor carries the page
 * number and a generation, so a cursor from before a list change is refused rather than misread.
 * @internal
 */
export class ListPager {
  private pages: string[] | undefined;
  private generation = 0;

  constructor(
    private readonly key: string,
    private readonly pageSize: number,
    private readonly items: () => Record<string, unknown>[],
  ) {}

  /** Drops the serialised pages; the next read rebuilds them. */
  invalidate(): void {
    this.pages = undefined;
    this.generation++;
  }

  /** The JSON text of one page's `result`. */
  page(cursor: unknown): string {
    const pages = (this.pages ??= this.build());
    if (cursor === undefined) return pages[0];
    const index = typeof cursor === 'string' ? this.decode(cursor) : -1;
    if (index < 1 || index >= pages.length)
      throw new InvalidParamsError('Invalid cursor', { field: 'cursor', reason: 'invalid' });
    return pages[index];
  }

  private build(): string[] {
    const all = this.items();
    const count = Math.max(1, Math.ceil(all.length / this.pageSize));
    const pages: string[] = [];
    for (let i = 0; i < count; i++) {
      const body: Record<string, unknown> = { [this.key]: all.slice(i * this.pageSize, (i + 1) * this.pageSize) };
      if (i + 1 < count) body.nextCursor = this.encode(i + 1);
      pages.push(JSON.stringify(body));
    }
    return pages;
  }

  private encode(index: number): string {
    return Buffer.from(`${this.key}:${this.generation}:${index}`).toString('base64url');
  }

  private decode(cursor: string): number {
    if (cursor.length > 128) return -1;
    const [key, gen, index] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
    if (key !== this.key || gen !== String(this.generation) || !/^\d+$/.test(index ?? '')) return -1;
    return Number(index);
  }
}

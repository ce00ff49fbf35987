/**
 * Expiry for an in-memory Map done a slice at a time: each {@link run} looks at most at `slice` entries, at most
 * once per `everyMs`, and the next run goes on where the last one stopped. A store never holds up a request to clean
 * itself, however many entries it holds.
 * @internal
 */
export class SlicedSweep<K, V> {
  private cursor: IterableIterator<[K, V]> | undefined;
  private last = Date.now();

  constructor(
    private readonly map: Map<K, V>,
    /** Called for every entry looked at; deleting it from the map there is safe. */
    private readonly visit: (key: K, value: V, now: number) => void,
    private readonly slice = 1_000,
    private readonly everyMs = 1_000,
  ) {}

  run(): void {
    const now = Date.now();
    if (now - this.last < this.everyMs) return;
    this.last = now;
    this.cursor ??= this.map.entries();
    for (let seen = 0; seen < this.slice; seen++) {
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        return;
      }
      this.visit(next.value[0], next.value[1], now);
    }
  }
}

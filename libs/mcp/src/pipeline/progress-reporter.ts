import { MessageSink } from '../wire/message-sink';

/**
 * Sends `notifications/progress` for one call: only rising values, at most one per interval (the
 * newest value in a burst wins, sent when the interval has passed), and nothing after the call ends.
 * @internal
 */
export class ProgressReporter {
  private last = -Infinity;
  private lastSentAt = 0;
  private queued: Record<string, unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly token: string | number | undefined,
    private readonly sink: MessageSink,
    private readonly intervalMs: number,
  ) {}

  report(progress: number, total?: number, message?: string): void {
    if (
      this.token === undefined ||
      this.ended ||
      typeof progress !== 'number' ||
      !Number.isFinite(progress) ||
      progress <= this.last
    )
      return;
    this.last = progress;
    const params: Record<string, unknown> = { progressToken: this.token, progress };
    if (typeof total === 'number' && Number.isFinite(total)) params.total = total;
    if (message !== undefined) params.message = String(message).slice(0, 1_000);
    const wait = this.lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0 && !this.timer) return this.flush(params);
    this.queued = params;
    this.timer ??= setTimeout(
      () => {
        this.timer = undefined;
        if (this.queued) this.flush(this.queued);
      },
      Math.max(wait, 0),
    );
  }

  end(): void {
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queued = undefined;
  }

  private flush(params: Record<string, unknown>): void {
    this.queued = undefined;
    this.lastSentAt = Date.now();
    this.sink.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }
}

import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { clip } from './clip';

/** Distinct (reason, source) pairs kept per interval; past it, new sources share one `(other sources)` entry. */
const MAX_KEYS = 1_000;

interface Tally {
  reason: string;
  source: string;
  repeats: number;
}

/**
 * Log lines for refused requests and connections (401, 403, 429, connection and session caps), aggregated: the
 * first refusal of a reason for a source is logged at once, the repeats within the interval become one line with
 * their count when it ends. A flood of refused requests thus writes a few lines per source and reason, not one per
 * request (an attack run wrote 60 MB in 20 s), while the metrics still count every refusal. Audit entries of
 * mutating tools never pass through here: they are never sampled.
 */
@Injectable()
export class McpRefusalLog implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRefusals');
  private readonly window = new Map<string, Tally>();
  private timer?: NodeJS.Timeout;

  constructor(@Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions) {}

  /**
   * Notes one refusal. `source` is who was refused: a token subject, or a peer address when there is no token.
   * `detail` goes on the first line only (bounded values: ids, status, limit names — never caller input).
   */
  note(reason: string, rawSource: string, detail: Record<string, unknown> = {}): void {
    // A token subject or a path comes from the caller: bounded like every logged request value.
    const source = clip(rawSource);
    let key = `${reason}\u0000${source}`;
    let tally = this.window.get(key);
    if (!tally && this.window.size >= MAX_KEYS) {
      key = `${reason}\u0000(other sources)`;
      tally = this.window.get(key);
      if (!tally) this.window.set(key, (tally = { reason, source: '(other sources)', repeats: 0 }));
    }
    if (tally) {
      tally.repeats++;
      return;
    }
    this.window.set(key, { reason, source, repeats: 0 });
    this.logger.warn({ msg: 'request refused', reason, source, ...detail });
    this.timer ??= setTimeout(() => this.flush(), this.options.logging.refusalIntervalMs).unref();
  }

  /** Writes the repeat counts of the interval and starts a new one. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const seconds = Math.round(this.options.logging.refusalIntervalMs / 1000);
    for (const { reason, source, repeats } of this.window.values()) {
      if (repeats > 0) this.logger.warn({ msg: 'requests refused', reason, source, count: repeats, seconds });
    }
    this.window.clear();
  }

  onApplicationShutdown(): void {
    this.flush();
  }
}

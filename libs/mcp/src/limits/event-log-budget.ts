import { Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpSession } from '../sessions/mcp-session';
import { callerSubject } from '../auth/mcp-principal';

/** As long as a finished stream's events are kept for resumption: bytes are counted over this window. */
const WINDOW_MS = 5 * 60_000;
/** Keys (sessions and callers) tracked before stale ones are swept. */
const SWEEP_AT = 20_000;

interface Window {
  start: number;
  current: number;
  previous: number;
}

/**
 * Bytes of SSE events this replica keeps in the event log for `Last-Event-ID` resumption, per session
 * (`limits.eventLogBytesPerSession`) and per caller (`limits.eventLogBytesPerSubject`), counted over a sliding window
 * of five minutes (how long finished streams are kept). An event past either budget is still sent on its stream, but
 * not kept: a resume cannot replay it. Ten calls carrying a 900 KB progress token put 43.8 MB into Redis; the event
 * count per stream alone did not bound bytes.
 * @internal
 */
@Injectable()
export class EventLogBudget {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions) {}

  /** True (and counted) when `bytes` more may be kept for this session and caller. */
  keep(sessionId: string, subject: string, bytes: number): boolean {
    const { eventLogBytesPerSession, eventLogBytesPerSubject } = this.options.limits;
    const now = Date.now();
    const session = this.window(`s:${sessionId}`, now);
    const caller = this.window(`c:${subject}`, now);
    if (used(session, now) + bytes > eventLogBytesPerSession || used(caller, now) + bytes > eventLogBytesPerSubject)
      return false;
    session.current += bytes;
    caller.current += bytes;
    return true;
  }

  /** {@link keep} for the streams of one 2025 session, as its caller (the session's principal). */
  keeper(session: McpSession): (bytes: number) => boolean {
    const subject = callerSubject(session.principal, session.transport);
    return (bytes) => this.keep(session.id, subject, bytes);
  }

  private window(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (!w) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      this.windows.set(key, (w = { start: now, current: 0, previous: 0 }));
    } else if (now - w.start >= WINDOW_MS) {
      // One window on: the current becomes the previous; two or more: both are past.
      w.previous = now - w.start < 2 * WINDOW_MS ? w.current : 0;
      w.current = 0;
      w.start = now - ((now - w.start) % WINDOW_MS);
    }
    return w;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= 2 * WINDOW_MS) this.windows.delete(key);
  }
}

/** Bytes in the sliding window: the current one, and the share of the previous one still inside it. */
function used(w: Window, now: number): number {
  return w.current + w.previous * Math.max(0, 1 - (now - w.start) / WINDOW_MS);
}

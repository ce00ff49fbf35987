import { McpError } from '../errors/mcp.error';

/**
 * A call in progress, as the peer it runs for holds it: its cancellation (`controller`, whose signal the provider gets
 * as `ctx.signal`) and how its answer ends early. Every abort goes through {@link abort}: one that carries a protocol
 * error (a timeout, the shutdown's `-32006`) also answers the caller at once, so a handler that ignores its signal
 * cannot keep the caller from its answer. No listener on the signal per call: the abort itself settles the answer.
 * @internal
 */
export class InflightCall {
  readonly controller = new AbortController();
  /** Cancelled by the client: the call gets no answer at all. */
  cancelled = false;
  private fail: ((error: McpError) => void) | undefined;

  abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    if (reason instanceof McpError) this.fail?.(reason);
  }

  /** The handler's answer, or the protocol error the call is aborted with while it waits. */
  answer<T>(work: Promise<T> | T): Promise<T> {
    if (!(work instanceof Promise)) return Promise.resolve(work);
    return new Promise<T>((resolve, reject) => {
      this.fail = reject;
      work.then(resolve, reject);
    });
  }
}

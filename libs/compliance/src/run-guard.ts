/** The largest answer the command reads from the checked server, body or SSE stream, before it stops reading. */
export const MAX_ANSWER_BYTES = 4 * 1_048_576;
/** How long a whole run may take by default (`--deadline` changes it): about ten times a healthy server's run. */
export const DEFAULT_DEADLINE_SEC = 300;
/** How long one request may take before its item fails (the run goes on). */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Why a run stopped before it checked every item: the server answered more than {@link MAX_ANSWER_BYTES}, or the
 * run's deadline passed. The report says so and the command exits 2: the server may be hostile, and the report is
 * not a verdict.
 */
export class RunStopped extends Error {
  constructor(
    readonly reason: 'answer-too-large' | 'deadline',
    message: string,
  ) {
    super(message);
  }
}

/**
 * What keeps one run bounded against a server that may be hostile: a byte cap on every answer and a deadline on the
 * whole run, shared by every request of the run (the probe's, and the conformance proxy's). The first breach stops
 * the run: later requests are not sent, later items not checked.
 */
export class RunGuard {
  private readonly controller = new AbortController();
  private readonly timer?: NodeJS.Timeout;
  private stop?: RunStopped;
  private readonly refused = new Set<string>();

  constructor(
    /** The run's deadline in seconds; 0 for none (a probe of the command's own app before the run starts). */
    readonly deadlineSec = DEFAULT_DEADLINE_SEC,
    readonly maxAnswerBytes = MAX_ANSWER_BYTES,
  ) {
    if (deadlineSec > 0) {
      this.timer = setTimeout(
        () => this.stopRun(new RunStopped('deadline', `the run's deadline of ${deadlineSec} s passed`)),
        deadlineSec * 1_000,
      );
      // The deadline never keeps the process alive by itself.
      this.timer.unref();
    }
  }

  /** Aborted once the run stops (deadline, or a capped answer): every request of the run listens to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run stopped, once it has. */
  get stopped(): RunStopped | undefined {
    return this.stop;
  }

  /** Stops the run (the first reason wins) and aborts what is in flight. */
  stopRun(reason: RunStopped): RunStopped {
    if (!this.stop) {
      this.stop = reason;
      this.controller.abort(reason);
    }
    return this.stop;
  }

  /** Throws why the run stopped, if it has: nothing more is sent after that. */
  throwIfStopped(): void {
    if (this.stop) throw this.stop;
  }

  /** An answer over the cap: the run stops, naming what was asked. */
  tooLarge(what: string): RunStopped {
    return this.stopRun(
      new RunStopped(
        'answer-too-large',
        `the answer to ${what} passed ${this.maxAnswerBytes} bytes (${this.maxAnswerBytes / 1_048_576} MiB), the most the command reads; it stopped reading`,
      ),
    );
  }

  /** Notes a redirect the command did not follow (`from` -> `to`), for the report. */
  redirectRefused(from: string, to: string): void {
    this.refused.add(`${from} -> ${to}`);
  }

  /** The redirects not followed, each once. */
  get refusedRedirects(): string[] {
    return [...this.refused];
  }

  /** Ends the deadline's timer (the run is over). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

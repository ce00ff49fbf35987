/** A server-to-client request embedded in an `InputRequiredResult`. @internal */
export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/**
 * Where a call's questions go instead of a server request: the rounds of a 2026-07-28 call, or the task the call runs
 * as (its questions wait in the task store for `tasks/update` or `tasks/result`).
 * @internal
 */
export interface CallQuestions {
  /** The next default key of `kind` (`elicitation_1`, `sampling_1`, `roots_1`, …): stable while the code path is. */
  nextKey(kind: string): string;
  /** The answer to `key`: at once when it is known, else when it comes (or never, when the call ends first). */
  ask(key: string, request: InputRequest): Promise<Record<string, unknown>>;
}

/**
 * The answers a 2026-07-28 call already has (from `requestState` and this retry's `inputResponses`) and the questions
 * it is left with. `ctx.elicit()`, `ctx.sample()` and `ctx.listRoots()` ask here instead of sending a request: an
 * answered question resolves at once; an open one never does, and the stage ends the call with every question asked
 * in the same turn of the event loop (so `Promise.all` of several questions asks them together).
 * @internal
 */
export class InputRounds implements CallQuestions {
  readonly asked: Record<string, InputRequest> = {};
  private readonly counters = new Map<string, number>();
  private signalOpen: (() => void) | undefined;
  /** Resolves once a question is open and every question of that turn has been asked. */
  readonly open: Promise<void>;

  constructor(readonly answers: Readonly<Record<string, unknown>>) {
    this.open = new Promise((resolve) => (this.signalOpen = resolve));
  }

  /** The next default key of `kind` (`elicitation_1`, `sampling_1`, `roots_1`, …): stable while the code path is. */
  nextKey(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return `${kind}_${n}`;
  }

  ask(key: string, request: InputRequest): Promise<Record<string, unknown>> {
    const answer = this.answers[key];
    if (typeof answer === 'object' && answer !== null && !Array.isArray(answer))
      return Promise.resolve(answer as Record<string, unknown>);
    const first = Object.keys(this.asked).length === 0;
    this.asked[key] = request;
    // setImmediate, not a microtask: questions asked in parallel (after other awaits) still join this round.
    if (first) setImmediate(() => this.signalOpen?.());
    return new Promise(() => undefined);
  }

  get hasOpenQuestions(): boolean {
    return Object.keys(this.asked).length > 0;
  }
}

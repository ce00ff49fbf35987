import { McpSession } from './mcp-session';

/** Sessions the idle sweep looks at per event-loop turn. */
const SWEEP_SLICE = 500;

/**
 * Releases the sessions idle since before `cutoff` a slice at a time, yielding to the event loop between slices:
 * expiring tens of thousands of sessions at once must not hold up the requests of everyone else. A session busy
 * with a call is kept. `done` runs once every session was looked at.
 * @internal
 */
export function sweepIdleSessions(
  sessions: Iterator<McpSession>,
  cutoff: number,
  release: (session: McpSession) => void,
  done: () => void,
): void {
  const slice = (): void => {
    for (let seen = 0; seen < SWEEP_SLICE; seen++) {
      const next = sessions.next();
      if (next.done) {
        done();
        return;
      }
      if (next.value.lastSeen < cutoff && !next.value.busy) release(next.value);
    }
    setImmediate(slice);
  };
  slice();
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpPrincipal } from '../auth/mcp-principal';

/**
 * What code running inside a provider method may learn of the call without being handed it: a downstream client
 * reads its signal, deadline, caller and request id from here, so a tool does not pass its context to every request.
 * @internal
 */
export interface CallScope {
  /** Aborted when the call is cancelled, times out or the server gives up on it. */
  signal: AbortSignal;
  /** Epoch ms by which the call must be answered (its timeout), or undefined when it has none. */
  deadline: number | undefined;
  /** The caller, when authenticated. */
  principal: McpPrincipal | undefined;
  /** The correlation id of the request (X-Request-Id over HTTP). */
  requestId: string | undefined;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /**
   * The downstreams the call used, each once in first-use order: the request runner hands the same array to the
   * call's observation, so its log entry and audit event name them (observability/ learns of no downstream).
   */
  downstreams?: string[];
  /** The task this call runs for, when it is a task's run (which holds no caller token: it is never stored). */
  taskId?: string;
}

// One store for the whole process, set around the provider method only once something that reads it exists (a
// downstream client, decided at boot): an app without one pays nothing per call.
const scopes = new AsyncLocalStorage<CallScope>();
let enabled = false;

/** Called at boot by what reads the scope (a downstream client): from then on every call sets it. @internal */
export const enableCallScope = (): void => {
  enabled = true;
};

/** Whether calls set the scope (a downstream client exists): the request runner then collects their downstreams. */
export const callScopeEnabled = (): boolean => enabled;

/** Notes that the current call used downstream `name` (nothing outside a call). @internal */
export const noteDownstream = (name: string): void => {
  const used = scopes.getStore()?.downstreams;
  if (used && !used.includes(name)) used.push(name);
};

/** Runs `fn` (the provider method) with the scope `make` builds as the current call, when enabled. @internal */
export const runInCallScope = <T>(make: () => CallScope, fn: () => T): T => (enabled ? scopes.run(make(), fn) : fn());

/** The call whose provider method is running now; undefined at boot, in a timer, in a queue worker. @internal */
export const currentCallScope = (): CallScope | undefined => scopes.getStore();

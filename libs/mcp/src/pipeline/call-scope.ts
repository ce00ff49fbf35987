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
}

// One store for the whole process: set once per call around the provider method (one `run` per call).
const scopes = new AsyncLocalStorage<CallScope>();

/** Runs `fn` (the provider method) with `scope` as the current call. @internal */
export const runInCallScope = <T>(scope: CallScope, fn: () => T): T => scopes.run(scope, fn);

/** The call whose provider method is running now; undefined at boot, in a timer, in a queue worker. @internal */
export const currentCallScope = (): CallScope | undefined => scopes.getStore();

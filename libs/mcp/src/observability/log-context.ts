import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the HTTP request being served, for log lines written while it runs (a tool's own
 * `Logger` calls among them). A plain string in one AsyncLocalStorage, set once per request by the access-log
 * middleware: no per-request child logger, nothing serialised until a line is actually written.
 * @internal
 */
const requestIds = new AsyncLocalStorage<string>();

/** Runs `fn` (the rest of the request) with `id` as the current request id. @internal */
export const runWithRequestId = <T>(id: string, fn: () => T): T => requestIds.run(id, fn);

/** The id of the request whose work is running now, if any. @internal */
export const currentRequestId = (): string | undefined => requestIds.getStore();

import { type IncomingMessage, ServerResponse } from 'node:http';
import { nodeRequest } from './node-http';

/** A request hook on Node's own objects, Express-style: `next()` goes on, `next(error)` hands the error to Nest. */
export type NodeRequestHook = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

type AdapterHook = (req: unknown, res: unknown, done: (error?: unknown) => void) => unknown;
/** Nest's HTTP adapter (`AbstractHttpAdapter`), as far as a request hook goes. */
type HookableAdapter = object;

/**
 * Installs `hook` as the application's request hook (Nest's `setOnRequestHook`): the first thing every request meets,
 * on Express the adapter's first middleware, on Fastify its first `onRequest` hook, before any middleware of the app
 * (Nest's, `app.use()`'s or middie's) and before the adapter's CORS, security and shutdown hooks. Cheaper than a Nest
 * middleware layer (no path matching, no middie on Fastify) and first on both adapters alike. A hook the adapter held
 * already runs after this one.
 * @internal
 */
export function installRequestHook(httpAdapter: HookableAdapter, hook: NodeRequestHook): void {
  const adapter = httpAdapter as { onRequestHook?: AdapterHook; setOnRequestHook(hook: AdapterHook): void };
  const previous = adapter.onRequestHook;
  adapter.setOnRequestHook((req: unknown, res: unknown, done: (error?: unknown) => void) => {
    const next = previous
      ? (error?: unknown) => (error ? done(error) : void previous.call(adapter, req, res, done))
      : done;
    hook(nodeRequest(req), rawResponse(res), next);
  });
}

/** Node's response under Fastify's reply (not taken over: the request goes on through Fastify), or Express's own. */
function rawResponse(res: unknown): ServerResponse {
  return res instanceof ServerResponse ? res : (res as { raw: ServerResponse }).raw;
}

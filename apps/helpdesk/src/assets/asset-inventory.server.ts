import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { ASSETS } from './asset.model';

/** The header the inventory reads its credential from (a static API key, not a user's token). */
export const INVENTORY_KEY_HEADER = 'x-api-key';

/** A running inventory service: where it listens, and how to stop it. */
export interface RunningInventory {
  url: string;
  close(): Promise<void>;
}

/**
 * The asset inventory the helpdesk's `get_asset` tool calls through a downstream client: a small HTTP service of
 * its own, as a helpdesk's real inventory (a CMDB) would be. It answers `GET /assets/<tag>` to a caller that
 * presents its API key, and nothing else; `/health` needs no key (a container's health check). A request that
 * carries an `Authorization` header is refused even with the key: this service trusts its key only, and an MCP
 * caller's bearer token arriving here would mean a server forwarded it.
 */
export function createInventoryServer(apiKey: string): Server {
  if (apiKey.length < 16) throw new Error('the asset inventory needs an API key of 16 characters or more');
  const expected = Buffer.from(apiKey);
  return createServer((req, res) => {
    try {
      answer(req, res, expected);
    } catch {
      send(res, 500, { message: 'The inventory failed to answer.' });
    }
  });
}

/** Starts the inventory on `host:port` (port 0: an ephemeral one). */
export async function startInventory(apiKey: string, host = '127.0.0.1', port = 0): Promise<RunningInventory> {
  const server = createInventoryServer(apiKey);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address() as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown}:${address.port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, expected: Buffer): void {
  const path = new URL(req.url ?? '/', 'http://inventory').pathname;
  if (path === '/health') return send(res, 200, { status: 'up' });
  if (req.headers.authorization !== undefined) {
    return send(res, 401, { message: 'This service accepts its API key only, never a bearer token.' });
  }
  const key = req.headers[INVENTORY_KEY_HEADER];
  const given = Buffer.from(typeof key === 'string' ? key : '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return send(res, 401, { message: 'A valid API key is required.' });
  }
  const match = /^\/assets\/([A-Za-z0-9-]{1,32})$/.exec(path);
  if (!match) return send(res, 404, { message: 'Unknown path.' });
  if (req.method !== 'GET') return send(res, 405, { message: 'Only GET is served.' });
  const asset = ASSETS.find((a) => a.tag === match[1].toUpperCase());
  if (!asset) return send(res, 404, { message: 'No asset has that tag.' });
  send(res, 200, asset);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

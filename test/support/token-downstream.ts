import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { JWTPayload } from 'jose';

/** One request the downstream received: its target, every header and the claims of its verified bearer. */
export interface DownstreamSeen {
  path: string;
  /** The request target as sent (path and query). */
  url: string;
  headers: IncomingMessage['headers'];
  /** The bearer token it carried (undefined when none). */
  token?: string;
  /** Its claims when the bearer verified for the path's audience, else undefined (the request was answered 401). */
  claims?: JWTPayload;
}

/** Options of {@link startTokenDownstream}. */
export interface TokenDownstreamOptions {
  /** The audience each first path segment stands for (`records` → `https://records.downstream.test`). */
  audiences: Record<string, string>;
  /** The issuer's check of a token for an audience (`OidcIssuer.verify`): rejects a token that is not valid there. */
  verify(token: string, audience: string): Promise<JWTPayload>;
  /** First path segments that answer 503 to everything (a service that is down). */
  unavailable?: string[];
}

/**
 * A real node:http service standing for the desk's downstreams: every request must carry a bearer token that the
 * issuer signed for the audience of its first path segment, and `GET /<segment>/whoami` answers who the token names
 * (`sub`, `aud`, `scope`, `act`); the segments in `unavailable` answer 503. Everything it received is kept in `seen`,
 * verified or not (answered 401).
 */
export async function startTokenDownstream(options: TokenDownstreamOptions) {
  const seen: DownstreamSeen[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void answer(req, res);
  });
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://downstream').pathname;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const entry: DownstreamSeen = { path, url: req.url ?? '', headers: req.headers, token };
    seen.push(entry);
    const audience = options.audiences[path.split('/')[1]];
    const json = (status: number, body: unknown) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (options.unavailable?.includes(path.split('/')[1])) return json(503, { message: 'down for maintenance' });
    if (!audience || !path.endsWith('/whoami')) return json(404, { message: 'no such resource' });
    try {
      entry.claims = await options.verify(token ?? '', audience);
    } catch {
      return json(401, { message: 'a valid bearer token for this service is required' });
    }
    const { sub, aud, scope, act } = entry.claims;
    json(200, { sub, aud, scope, act });
  }
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

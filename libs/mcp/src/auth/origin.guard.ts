import type { IncomingMessage } from 'node:http';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { nodeRequest, nodeResponse, requestTarget } from '../http-adapter/node-http';
import { EXPOSE_HEADERS, hostMatcher, originHostRefusal, originMatcher } from './origin-host.checks';
import { McpOriginRefusal } from './origin-refusal.error';
import { AuthorityRefusal } from './host-authority';

/** How many Host verdicts a guard keeps (a deployment sees a handful of names). */
const HOSTS_KEPT = 256;

/**
 * The Origin and Host allow-lists on the platform's routes (the MCP endpoints, the protected-resource metadata, the
 * service page): first of their guards, so a foreign page or a rebound DNS name gets 403 (a malformed authority 400)
 * before authentication or any MCP processing. A guard, after routing: it holds for whatever spelling of the path the
 * router takes. An allowed origin gets `Access-Control-*` headers echoing it, never `*`. CORS preflights carry no
 * credentials and match no route: McpCorsMiddleware answers them with the same checks.
 * @internal
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly originAllowed: (origin: string) => boolean;
  private readonly hostAllowed: (host: string) => boolean;

  constructor(@Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions) {
    this.originAllowed = originMatcher(options.allowedOrigins);
    this.hostAllowed = hostMatcher(options.allowedHosts);
  }

  /**
   * Verdicts of requests without an Origin whose target is a path (what API clients send), by Host: a client sends the
   * same Host with every request, so it is judged once. Bounded: cleared when full.
   */
  private readonly byHost = new Map<string, AuthorityRefusal | null>();

  /** Why `req` is refused (its Origin or Host), or undefined: also what McpCorsMiddleware asks of a preflight. */
  refusalOf(req: IncomingMessage): AuthorityRefusal | undefined {
    const host = req.headers.host;
    if (req.headers.origin !== undefined || host === undefined || !requestTarget(req).startsWith('/'))
      return originHostRefusal(req, this.originAllowed, this.hostAllowed);
    let verdict = this.byHost.get(host);
    if (verdict === undefined) {
      verdict = originHostRefusal(req, this.originAllowed, this.hostAllowed) ?? null;
      if (this.byHost.size >= HOSTS_KEPT) this.byHost.clear();
      this.byHost.set(host, verdict);
    }
    return verdict ?? undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = nodeRequest(http.getRequest());
    const refusal = this.refusalOf(req);
    if (refusal) throw new McpOriginRefusal(refusal);
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const res = nodeResponse(http.getResponse());
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      res.setHeader('Vary', 'Origin');
    }
    return true;
  }
}

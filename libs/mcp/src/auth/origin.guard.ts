import type { IncomingMessage } from 'node:http';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { nodeRequest, nodeResponse } from '../http-adapter/node-http';
import { EXPOSE_HEADERS, hostMatcher, originHostRefusal, originMatcher } from './origin-host.checks';
import { McpOriginRefusal } from './origin-refusal.error';
import { AuthorityRefusal } from './host-authority';

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

  /** Why `req` is refused (its Origin or Host), or undefined: also what McpCorsMiddleware asks of a preflight. */
  refusalOf(req: IncomingMessage): AuthorityRefusal | undefined {
    return originHostRefusal(req, this.originAllowed, this.hostAllowed);
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

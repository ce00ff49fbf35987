import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpMetrics } from './mcp-metrics.service';
import { nodeRequest, nodeResponse } from '../http-adapter/node-http';
import { sendJson } from '../http-adapter/json-response';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `/metrics` on the main port, only when Basic credentials are configured (`metrics.basicAuth` or
 * `MCP_METRICS_USER` + `MCP_METRICS_PASSWORD`); 404 otherwise, so the endpoint is never public.
 * @internal
 */
@Controller()
export class McpMetricsController {
  private readonly expected?: Buffer;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly metrics: McpMetrics,
  ) {
    const auth = options.metrics ? options.metrics.basicAuth : undefined;
    if (auth) this.expected = digest(`${auth.username}:${auth.password}`);
  }

  @Get('metrics')
  async scrape(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
    if (!this.expected) throw new NotFoundException();
    const header = nodeRequest(req).headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match ? digest(Buffer.from(match[1], 'base64').toString('utf8')) : undefined;
    // Compared as fixed-length digests in constant time: no length or prefix leaks through timing.
    if (!given || !timingSafeEqual(given, this.expected)) {
      this.metrics.authFailures.inc({ reason: 'metrics_basic_auth' });
      // Nest's body for an UnauthorizedException, written here with the challenge header (on either adapter).
      const body = { message: 'Metrics need Basic credentials', error: 'Unauthorized', statusCode: 401 };
      const headers = { 'WWW-Authenticate': 'Basic realm="metrics", charset="UTF-8"', 'Cache-Control': 'no-store' };
      return sendJson(nodeResponse(reply), 401, headers, JSON.stringify(body));
    }
    const text = await this.metrics.scrape();
    nodeResponse(reply)
      .writeHead(200, {
        'Content-Type': this.metrics.registry.contentType,
        'Cache-Control': 'no-store',
        'Content-Length': Buffer.byteLength(text),
      })
      .end(text);
  }
}

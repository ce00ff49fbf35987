import { Controller, Get, Header, Inject, NotFoundException, Req, Res, UnauthorizedException } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { McpMetrics } from './mcp-metrics.service';

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
  @Header('Cache-Control', 'no-store')
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.expected) throw new NotFoundException();
    const header = req.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match ? digest(Buffer.from(match[1], 'base64').toString('utf8')) : undefined;
    // Compared as fixed-length digests in constant time: no length or prefix leaks through timing.
    if (!given || !timingSafeEqual(given, this.expected)) {
      this.metrics.authFailures.inc({ reason: 'metrics_basic_auth' });
      res.setHeader('WWW-Authenticate', 'Basic realm="metrics", charset="UTF-8"');
      throw new UnauthorizedException('Metrics need Basic credentials');
    }
    res.type(this.metrics.registry.contentType).send(await this.metrics.scrape());
  }
}

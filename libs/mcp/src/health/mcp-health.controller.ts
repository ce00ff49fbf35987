import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { HealthAnswer } from './health-body.mapper';
import { McpHealthService } from './mcp-health.service';

/**
 * `GET /health` (liveness) and `GET /ready` (readiness), corporate standard §16 (see docs/compliance.md#s16): no
 * authentication (the MCP auth guard is bound to the MCP controllers only, and the scope guard looks at MCP calls
 * only), JSON, never cached. With `health.enabled: false` both answer 404 like an unknown route.
 * @internal
 */
@Controller()
export class McpHealthController {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly health: McpHealthService,
  ) {}

  @Get('health')
  async liveness(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.ensureEnabled(req);
    send(res, await this.health.liveness());
  }

  @Get('ready')
  async readiness(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.ensureEnabled(req);
    send(res, await this.health.readiness());
  }

  private ensureEnabled(req: Request): void {
    if (!this.options.health.enabled) throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
  }
}

function send(res: Response, { code, body }: HealthAnswer<unknown>): void {
  // Probes must see the live state, never a proxy's copy.
  res.status(code).set('Cache-Control', 'no-store').json(body);
}

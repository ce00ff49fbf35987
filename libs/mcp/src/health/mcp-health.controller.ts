import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { HealthAnswer } from './health-body.mapper';
import { McpHealthService } from './mcp-health.service';
import { nodeRequest, nodeResponse, pathOf } from '../http-adapter/node-http';
import { sendJson } from '../http-adapter/json-response';

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
  async liveness(@Req() req: unknown, @Res() res: unknown): Promise<void> {
    this.ensureEnabled(nodeRequest(req));
    send(nodeResponse(res), await this.health.liveness());
  }

  @Get('ready')
  async readiness(@Req() req: unknown, @Res() res: unknown): Promise<void> {
    this.ensureEnabled(nodeRequest(req));
    send(nodeResponse(res), await this.health.readiness());
  }

  private ensureEnabled(req: IncomingMessage): void {
    if (!this.options.health.enabled) throw new NotFoundException(`Cannot ${req.method} ${pathOf(req.url)}`);
  }
}

function send(res: ServerResponse, { code, body }: HealthAnswer<unknown>): void {
  // Probes must see the live state, never a proxy's copy.
  sendJson(res, code, { 'Cache-Control': 'no-store' }, JSON.stringify(body));
}

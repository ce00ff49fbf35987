import { Controller, Get, Inject, NotFoundException, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import {
  SERVICE_PAGE_HEADERS,
  SERVICE_PAGE_PATH,
  SERVICE_PAGE_SCRIPT_PATH,
  SERVICE_PAGE_STYLE_PATH,
} from './service-page.constants';
import { servicePageModel } from './service-page-model.factory';
import { renderServicePage } from './service-page.renderer';
import { SERVICE_PAGE_SCRIPT } from './service-page.script';
import { SERVICE_PAGE_CSS } from './service-page.styles';
import { nodeRequest, nodeResponse, pathOf } from '../http-adapter/node-http';
import { McpOriginGuard } from '../auth/origin.guard';
import { McpOriginRefusalFilter } from '../auth/origin-refusal.filter';

/**
 * `GET /`: the HTML service page (catalogue, endpoints, auth scheme, a console to call a tool), and
 * its script and style sheet under `/_mcp/`. No auth: it shows what the README shows. Answers 404
 * like an unknown route when `servicePage` is off.
 * @internal
 */
@Controller()
@UseGuards(McpOriginGuard)
@UseFilters(McpOriginRefusalFilter)
export class ServicePageController {
  /** The rendered page, rebuilt after the registry announces a change (entries may be added at run time). */
  private page?: string;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_AUTH_CONFIG) private readonly auth: ResolvedAuthConfig,
    private readonly registry: McpRegistry,
  ) {
    registry.onListChanged(() => (this.page = undefined));
  }

  @Get(SERVICE_PAGE_PATH)
  index(@Req() req: unknown, @Res() res: unknown): void {
    this.page ??= renderServicePage(servicePageModel(this.options, this.auth, this.registry));
    this.send(req, res, 'text/html; charset=utf-8', this.page, 'no-store');
  }

  @Get(SERVICE_PAGE_SCRIPT_PATH)
  script(@Req() req: unknown, @Res() res: unknown): void {
    this.send(req, res, 'text/javascript; charset=utf-8', SERVICE_PAGE_SCRIPT, 'public, max-age=300');
  }

  @Get(SERVICE_PAGE_STYLE_PATH)
  style(@Req() req: unknown, @Res() res: unknown): void {
    this.send(req, res, 'text/css; charset=utf-8', SERVICE_PAGE_CSS, 'public, max-age=300');
  }

  private send(req: unknown, res: unknown, type: string, body: string, cache: string): void {
    // The same answer as a route that does not exist, so a switched-off page reveals nothing.
    if (!this.options.servicePage) throw new NotFoundException(`Cannot GET ${pathOf(nodeRequest(req).url)}`);
    nodeResponse(res)
      .writeHead(200, {
        ...SERVICE_PAGE_HEADERS,
        'Content-Type': type,
        'Cache-Control': cache,
        'Content-Length': Buffer.byteLength(body),
      })
      .end(body);
  }
}

import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { McpHttpAuthGuard } from '../../auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from '../../auth/mcp-auth.filter';
import { McpOriginGuard } from '../../auth/origin.guard';
import { McpOriginRefusalFilter } from '../../auth/origin-refusal.filter';
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH } from './legacy-sse.endpoint';
import { LegacySseService } from './legacy-sse.service';
import { nodeRequest, nodeResponse } from '../../http-adapter/node-http';
import { ReadsOwnBody } from '../../http-adapter/http-adapter';
import { refusedWithoutEntry } from '../http/mcp-http-entry.middleware';

/**
 * The legacy HTTP+SSE endpoints (`GET /sse`, `POST /messages`), registered only when
 * `legacySse` is on. A Nest controller, so guards and interceptors see this traffic too.
 * @internal
 */
@Controller()
@UseGuards(McpOriginGuard, McpHttpAuthGuard)
@UseFilters(McpAuthExceptionFilter, McpOriginRefusalFilter)
export class McpLegacySseController {
  constructor(private readonly legacy: LegacySseService) {}

  @Get(LEGACY_SSE_PATH)
  async sse(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
    const request = nodeRequest(req);
    const res = nodeResponse(reply);
    if (!refusedWithoutEntry(request, res)) return this.legacy.open(request, res);
  }

  @Post(LEGACY_MESSAGES_PATH)
  @ReadsOwnBody()
  async messages(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
    const request = nodeRequest(req);
    const res = nodeResponse(reply);
    if (!refusedWithoutEntry(request, res)) return this.legacy.message(request, res);
  }
}

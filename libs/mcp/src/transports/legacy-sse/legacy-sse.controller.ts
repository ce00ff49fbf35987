import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { McpHttpAuthGuard } from '../../auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from '../../auth/mcp-auth.filter';
import type { Request, Response } from 'express';
import { LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH } from './legacy-sse.endpoint';
import { LegacySseService } from './legacy-sse.service';

/**
 * The legacy HTTP+SSE endpoints (`GET /sse`, `POST /messages`), registered only when
 * `legacySse` is on. A Nest controller, so guards and interceptors see this traffic too.
 * @internal
 */
@Controller()
@UseGuards(McpHttpAuthGuard)
@UseFilters(McpAuthExceptionFilter)
export class McpLegacySseController {
  constructor(private readonly legacy: LegacySseService) {}

  @Get(LEGACY_SSE_PATH)
  sse(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.legacy.open(req, res);
  }

  @Post(LEGACY_MESSAGES_PATH)
  messages(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.legacy.message(req, res);
  }
}

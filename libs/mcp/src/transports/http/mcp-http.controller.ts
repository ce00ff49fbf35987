import { Controller, Delete, Get, Logger, Post, Req, Res, Type, UseFilters, UseGuards } from '@nestjs/common';
import { McpAuthError } from '../../auth/mcp-auth.error';
import { ErrorCode } from '../../wire/json-rpc';
import { sendHttpError } from './http-checks';
import { McpHttpAuthGuard } from '../../auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from '../../auth/mcp-auth.filter';
import type { Request, Response } from 'express';
import { McpHttpService } from './mcp-http.service';
import { McpSessionStreams } from './session-streams.service';

/**
 * Builds the Streamable HTTP controller for `path`. A Nest controller (not a raw Express route),
 * so global and module guards and interceptors see MCP traffic like any other.
 * @internal
 */
export function createMcpHttpController(path: string): Type<unknown> {
  @Controller(path)
  @UseGuards(McpHttpAuthGuard)
  @UseFilters(McpAuthExceptionFilter)
  class McpHttpController {
    constructor(
      private readonly http: McpHttpService,
      private readonly streams: McpSessionStreams,
    ) {}

    @Post()
    post(@Req() req: Request, @Res() res: Response): Promise<void> {
      return this.http.post(req, res).catch((error: unknown) => internalError(error, res));
    }

    @Get()
    get(@Req() req: Request, @Res() res: Response): Promise<void> {
      return this.streams.get(req, res);
    }

    @Delete()
    delete(@Req() req: Request, @Res() res: Response): Promise<void> {
      return this.streams.delete(req, res);
    }
  }
  return McpHttpController;
}

const logger = new Logger('McpHttp');

/** Last line of defence: a JSON-RPC `-32603` instead of Nest's generic 500 body; auth errors go on to their filter. */
function internalError(error: unknown, res: Response): void {
  if (error instanceof McpAuthError) throw error;
  logger.error(
    `unexpected failure in the MCP transport: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  sendHttpError(res, 500, ErrorCode.InternalError, 'Internal error');
}

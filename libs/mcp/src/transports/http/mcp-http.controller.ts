import { Controller, Delete, Get, Post, Req, Res, Type, UseFilters, UseGuards } from '@nestjs/common';
import { McpHttpAuthGuard } from '../../auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from '../../auth/mcp-auth.filter';
import type { Request, Response } from 'express';
import { McpHttpService } from './mcp-http.service';

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
    constructor(private readonly http: McpHttpService) {}

    @Post()
    post(@Req() req: Request, @Res() res: Response): Promise<void> {
      return this.http.post(req, res);
    }

    @Get()
    get(@Req() req: Request, @Res() res: Response): Promise<void> {
      return this.http.get(req, res);
    }

    @Delete()
    delete(@Req() req: Request, @Res() res: Response): void {
      this.http.delete(req, res);
    }
  }
  return McpHttpController;
}

import { Controller, Delete, Get, Logger, Post, Req, Res, Type, UseFilters, UseGuards } from '@nestjs/common';
import { McpAuthError } from '../../auth/mcp-auth.error';
import { ErrorCode } from '../../wire/json-rpc';
import { sendHttpError } from '../../errors/send-http-error';
import { McpHttpAuthGuard } from '../../auth/mcp-http-auth.guard';
import { McpAuthExceptionFilter } from '../../auth/mcp-auth.filter';
import { McpOriginGuard } from '../../auth/origin.guard';
import { McpOriginRefusalFilter } from '../../auth/origin-refusal.filter';
import type { ServerResponse } from 'node:http';
import { McpHttpService } from './mcp-http.service';
import { McpSessionStreams } from './session-streams.service';
import { nodeRequest, nodeResponse } from '../../http-adapter/node-http';
import { ReadsOwnBody } from '../../http-adapter/http-adapter';
import { refusedWithoutEntry } from './mcp-http-entry.middleware';

/**
 * Builds the Streamable HTTP controller for `path`. A Nest controller (not a raw route of the adapter), so global and
 * module guards and interceptors see MCP traffic like any other. The edge: past it the transport works on Node's own
 * request and response, on Express and Fastify alike.
 * @internal
 */
export function createMcpHttpController(path: string): Type<unknown> {
  @Controller(path)
  @UseGuards(McpOriginGuard, McpHttpAuthGuard)
  @UseFilters(McpAuthExceptionFilter, McpOriginRefusalFilter)
  class McpHttpController {
    constructor(
      private readonly http: McpHttpService,
      private readonly streams: McpSessionStreams,
    ) {}

    @Post()
    @ReadsOwnBody()
    post(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
      const request = nodeRequest(req);
      const res = nodeResponse(reply);
      if (refusedWithoutEntry(request, res)) return Promise.resolve();
      return this.http.post(request, res).catch((error: unknown) => internalError(error, res));
    }

    @Get()
    async get(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
      const request = nodeRequest(req);
      const res = nodeResponse(reply);
      if (!refusedWithoutEntry(request, res)) return this.streams.get(request, res);
    }

    @Delete()
    @ReadsOwnBody()
    async delete(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
      const request = nodeRequest(req);
      const res = nodeResponse(reply);
      if (!refusedWithoutEntry(request, res)) return this.streams.delete(request, res);
    }
  }
  return McpHttpController;
}

const logger = new Logger('McpHttp');

/** Last line of defence: a JSON-RPC `-32603` instead of Nest's generic 500 body; auth errors go on to their filter. */
function internalError(error: unknown, res: ServerResponse): void {
  if (error instanceof McpAuthError) throw error;
  logger.error(
    `unexpected failure in the MCP transport: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  sendHttpError(res, 500, ErrorCode.InternalError, 'Internal error');
}

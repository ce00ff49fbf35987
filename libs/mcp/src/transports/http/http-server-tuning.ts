import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../interfaces/mcp-module-options.interface';

/**
 * Sets Node's own server timeouts deliberately (headers, whole request, keep-alive), so slow or
 * stalled clients cannot pin connections. SSE responses are not affected: these bound the request.
 * @internal
 */
@Injectable()
export class HttpServerTuning implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.options.limits;
    server.keepAliveTimeout = keepAliveTimeoutMs;
    // Node requires headersTimeout > keepAliveTimeout for reused connections to be handled well.
    server.headersTimeout = Math.max(headersTimeoutMs, keepAliveTimeoutMs + 1_000);
    server.requestTimeout = Math.max(requestTimeoutMs, server.headersTimeout);
  }
}

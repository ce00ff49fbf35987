import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpMetrics } from '../../observability/mcp-metrics.service';
import { McpRefusalLog } from '../../observability/refusal-log';
import { ConnectionLimiter } from '../../admission/connection-limiter';

/** How often Node looks for requests past their header or request timeout (its default, 30 s, adds up to 30 s). */
const TIMEOUT_CHECK_MS = 1_000;
/** Descriptors kept free for everything that is not an inbound connection: files, the issuer, Redis, logs. */
const DESCRIPTOR_RESERVE = 256;

/**
 * Sets Node's own server timeouts deliberately (headers, whole request, keep-alive) and caps the connections the
 * server holds, in total and per source, so slow, stalled or idle clients cannot pin connections or take every file
 * descriptor. SSE responses are not affected: the timeouts bound receiving the request.
 * @internal
 */
@Injectable()
export class HttpServerTuning implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly metrics?: McpMetrics,
    private readonly refusals?: McpRefusalLog,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.options.limits;
    // The documented timeouts are the real ones: checked every second (read by Node when it starts listening), and
    // headersTimeout is not raised to the keep-alive timeout (Node 18+ times each request's headers on their own).
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.headersTimeout = headersTimeoutMs;
    server.requestTimeout = Math.max(requestTimeoutMs, headersTimeoutMs);
    (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = TIMEOUT_CHECK_MS;
    this.limitConnections(server);
  }

  private limitConnections(server: Server): void {
    const { maxConnections, maxConnectionsPerSource } = this.options.limits;
    const descriptors = openFilesLimit();
    let max = maxConnections;
    if (descriptors !== undefined && max > descriptors - DESCRIPTOR_RESERVE) {
      max = Math.max(1, descriptors - DESCRIPTOR_RESERVE);
      this.logger.warn(
        `limits.maxConnections ${maxConnections} is above the file-descriptor limit (${descriptors}); using ${max}`,
      );
    }
    const limiter = new ConnectionLimiter({ max, perSource: maxConnectionsPerSource }, (source, reason) => {
      this.metrics?.connectionsRefused.inc({ reason });
      this.refusals?.note(`connection_limit:${reason}`, source);
    });
    limiter.attach(server);
    if (this.metrics) this.metrics.openConnections = () => limiter.open;
  }
}

/** The soft `RLIMIT_NOFILE` of this process on Linux; undefined elsewhere or when unlimited. */
function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    const n = Number(line);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

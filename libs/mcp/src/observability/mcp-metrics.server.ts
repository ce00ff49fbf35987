import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpMetrics } from './mcp-metrics.service';

/** A JSON answer of a management route. */
export interface ManagementAnswer {
  code: number;
  body: unknown;
}

/**
 * `/metrics` on a listener of its own (default port 9464), apart from the MCP port: it is reached
 * by the scraper inside the cluster, never through the public ingress. Started only by HTTP apps
 * (a stdio process is spawned per client and must not hold a port). A port that cannot be bound
 * stops the boot in production; elsewhere a port already in use is replaced by a free one, with a warning.
 * Other modules add routes to it (the health probes do), so probes keep answering while the public port is
 * flooded.
 */
@Injectable()
export class McpMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpMetrics');
  private server?: Server;
  private readonly routes = new Map<string, () => Promise<ManagementAnswer>>();

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly metrics: McpMetrics,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Where metrics are scraped, once listening (`http://host:port/metrics`). */
  get url(): string | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address || !this.options.metrics) return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/metrics`;
  }

  /** Serves `GET path` on the management listener with `answer` (JSON, never cached). Call before bootstrap. */
  route(path: string, answer: () => Promise<ManagementAnswer>): void {
    this.routes.set(path, answer);
  }

  async onApplicationBootstrap(): Promise<void> {
    const m = this.options.metrics;
    if (!m || m.port === false || !this.adapterHost.httpAdapter || !this.options.http) return;
    const { port, host } = m;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const route = req.method === 'GET' ? this.routes.get(path) : undefined;
      if (route) {
        route().then(
          ({ code, body }) =>
            res
              .writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
              .end(JSON.stringify(body)),
          () => res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"status":"down"}'),
        );
        return;
      }
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
        return;
      }
      this.metrics.scrape().then(
        (body) =>
          res
            .writeHead(200, { 'Content-Type': this.metrics.registry.contentType, 'Cache-Control': 'no-store' })
            .end(body),
        (error: Error) => {
          this.logger.error(`metrics collection failed: ${error.message}`);
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    });
    server.headersTimeout = 10_000;
    // An internal listener: a handful of scrapers and probes, never a crowd.
    server.maxConnections = 256;
    server.requestTimeout = 10_000;
    try {
      await listen(server, port, host);
    } catch (e) {
      // A second replica on a developer's machine finds 9464 taken: outside production it takes a free port and
      // says so. In production a port the probes and scrapers are configured for must not move: the boot stops.
      const taken = (e as NodeJS.ErrnoException).code === 'EADDRINUSE' && process.env.NODE_ENV !== 'production';
      if (!taken || port === 0) throw metricsPortError(host, port, e as Error);
      await listen(server, 0, host).catch((again: Error) => {
        throw metricsPortError(host, port, again);
      });
      this.logger.warn(`metrics port ${port} is in use (another server?): took a free one; MCP_METRICS_PORT sets it`);
    }
    this.server = server;
    this.logger.log(`Prometheus metrics on ${this.url}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((r) => server.close(r));
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function metricsPortError(host: string, port: number, e: Error): Error {
  return new Error(
    `McpModule: cannot serve metrics on ${host}:${port} (${e.message}); set MCP_METRICS_PORT (0 = any free port, false = none)`,
  );
}

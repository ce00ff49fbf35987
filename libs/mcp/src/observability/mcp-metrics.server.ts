import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { McpMetrics } from './mcp-metrics.service';

/**
 * `/metrics` on a listener of its own (default port 9464), apart from the MCP port: it is reached
 * by the scraper inside the cluster, never through the public ingress. Started only by HTTP apps
 * (a stdio process is spawned per client and must not hold a port). A port that cannot be bound
 * stops the boot.
 */
@Injectable()
export class McpMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpMetrics');
  private server?: Server;

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

  async onApplicationBootstrap(): Promise<void> {
    const m = this.options.metrics;
    if (!m || m.port === false || !this.adapterHost.httpAdapter || !this.options.http) return;
    const { port, host } = m;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
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
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: Error) =>
        reject(
          new Error(
            `McpModule: cannot serve metrics on ${host}:${port} (${e.message}); set MCP_METRICS_PORT (0 = any free port, false = none)`,
          ),
        ),
      );
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Prometheus metrics on ${this.url}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((r) => server.close(r));
  }
}

import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpMetricsServer } from '../observability/mcp-metrics.server';
import { McpHealthService } from './mcp-health.service';

/**
 * `/health` and `/ready` also on the management listener (the metrics port, 9464 by default), with the same
 * answers as on the public port. Kubernetes probes pointed there keep answering while the public port is at its
 * connection cap, so a connection flood cannot get a healthy replica restarted.
 * @internal
 */
@Injectable()
export class ManagementProbes implements OnModuleInit {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly health: McpHealthService,
    @Optional() private readonly management?: McpMetricsServer,
  ) {}

  onModuleInit(): void {
    if (!this.options.health.enabled || !this.management) return;
    this.management.route('/health', () => this.health.liveness());
    this.management.route('/ready', () => this.health.readiness());
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './call-instruments';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpSessionManager } from '../sessions/mcp-session.manager';

/** Buckets of the OpenTelemetry MCP conventions for `mcp.server.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The service's Prometheus instruments, on a registry of its own (not prom-client's global one), so
 * two apps in one process, or a team's own registry, never collide. Labels are bounded: tool names
 * come from the registry, statuses from a fixed list, never from client input.
 */
@Injectable()
export class McpMetrics {
  readonly registry = new Registry();
  /** Updated on every tools/call: series kept by the caller (see call-instruments.ts). */
  readonly toolCalls: SeriesCounter;
  /** Updated on every MCP request, likewise. */
  readonly operationDuration: SeriesHistogram;
  readonly authFailures: Counter<'reason'>;
  readonly rateLimited: Counter<'target' | 'limit'>;
  readonly connectionsRefused: Counter<'reason'>;
  /** Connections the MCP HTTP server holds now (set by the HTTP transport when it starts). */
  openConnections: () => number = () => 0;

  constructor(@Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions, sessions: McpSessionManager) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ service: options.name });
    this.toolCalls = new SeriesCounter(
      {
        name: 'mcp_tool_calls_total',
        help: 'tools/call requests by tool and outcome (ok, tool_error or the error class).',
        labelNames: ['tool', 'status'],
      },
      this.registry,
    );
    this.operationDuration = new SeriesHistogram(
      {
        name: 'mcp_server_operation_duration_seconds',
        help: 'Duration of MCP requests by method, target (tool or prompt name) and outcome.',
        labelNames: ['method', 'target', 'status'],
        buckets: DURATION_BUCKETS,
      },
      this.registry,
    );
    this.authFailures = new Counter({
      name: 'mcp_auth_failures_total',
      help: 'Refused authentications by reason.',
      labelNames: ['reason'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'mcp_rate_limit_events_total',
      help: 'Calls refused by a rate or concurrency limit.',
      labelNames: ['target', 'limit'],
      registers,
    });
    this.connectionsRefused = new Counter({
      name: 'mcp_connections_refused_total',
      help: 'HTTP connections refused at accept time by the connection caps (reason: total, per_source).',
      labelNames: ['reason'],
      registers,
    });
    const open = () => this.openConnections();
    new Gauge({
      name: 'mcp_open_connections',
      help: 'HTTP connections the MCP server holds on this replica.',
      registers,
      collect() {
        this.set(open());
      },
    });
    new Gauge({
      name: 'mcp_active_sessions',
      help: 'Live MCP sessions on this replica.',
      registers,
      collect() {
        this.set(sessions.size);
      },
    });
    if (options.metrics && options.metrics.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}

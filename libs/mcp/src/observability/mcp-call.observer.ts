import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Context, Span } from '@opentelemetry/api';
import type { Logger as PinoLogger } from 'pino';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import { ToolEntry } from '../registry/registry-entries';
import { JsonRpcRequest } from '../wire/json-rpc';
import { McpPeer } from '../context/mcp-peer';
import { McpPrincipal } from '../auth/mcp-principal';
import { maskArguments } from '../registry/argument-masker';
import { MCP_ATTR, endSpan, mcpTracer, startMcpSpan, tracingActive } from './mcp-tracer';
import { McpMetrics } from './mcp-metrics.service';
import { CounterSeries, HistogramSeries } from './call-instruments';
import { MCP_AUDIT_SINK, McpAuditSink } from './mcp-audit.sink';
import { McpRefusalLog } from './refusal-log';
import { McpLogger } from './mcp.logger';

/** The metric series one outcome of one method and target updates. */
interface CallSeries {
  duration: HistogramSeries;
  calls: CounterSeries | undefined;
}

/** One MCP request being observed. @internal */
export interface ObservedCall {
  /** The span's context, or undefined when no OpenTelemetry SDK runs. */
  readonly ctx: Context | undefined;
  readonly span: Span | undefined;
  /** False when the span is the HTTP request's (one MCP request in the body): the HTTP layer ends it. */
  readonly owned: boolean;
  readonly method: string;
  readonly target: string | undefined;
  readonly tool: ToolEntry | undefined;
  readonly started: number;
  readonly request: JsonRpcRequest;
  readonly peer: McpPeer;
  readonly requestId: string | undefined;
  readonly principal: McpPrincipal | undefined;
  /** The downstream services the call used, each once in first-use order; set by the request runner when any exists. */
  downstreams?: readonly string[];
}

/**
 * Observes every MCP request where its final outcome is known (after limits, timeouts, argument
 * validation and the pipeline): the MCP server span, one log entry per tool call, the audit event
 * of a mutating tool, and the call metrics. Guards, limits and timeouts act outside interceptors,
 * so an interceptor alone would miss a refused or timed-out call.
 * @internal
 */
@Injectable()
export class McpCallObserver {
  private readonly logger = new Logger('McpCalls');
  /** Decided once at boot: without an OpenTelemetry SDK, no span work at all on the hot path. */
  private readonly tracing = tracingActive();
  private readonly tracer = mcpTracer();
  /** The metric series of each method, target and status, found with no key string built per call. */
  private readonly series = new Map<string, Map<string, Map<string, CallSeries>>>();
  private readonly auditLogger = new Logger('McpAudit');

  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly metrics: McpMetrics,
    @Optional() @Inject(MCP_AUDIT_SINK) private readonly audit?: McpAuditSink,
    @Optional() private readonly refusals?: McpRefusalLog,
    @Optional() appLog?: McpLogger,
  ) {
    this.lines = appLog?.pino.child({ context: 'McpCalls' });
  }

  /**
   * The call entries' own pino logger when the app logs through `McpLoggerModule`: written directly, not through
   * Nest's `Logger` (its level checks and argument shuffling, once per call). The context is bound once at boot.
   */
  private readonly lines: PinoLogger | undefined;

  begin(
    request: JsonRpcRequest,
    peer: McpPeer,
    requestId: string | undefined,
    principal: McpPrincipal | undefined,
  ): ObservedCall {
    const { method } = request;
    const params = request.params ?? {};
    const name = typeof params.name === 'string' ? params.name : undefined;
    const tool = method === 'tools/call' && name !== undefined ? this.registry.tools.get(name) : undefined;
    // Span names and metric labels carry only names the registry knows: bounded, never client input.
    const target =
      tool?.name ??
      (method === 'prompts/get' && name !== undefined && this.registry.prompts.has(name) ? name : undefined);
    const { span, ctx, owned } = !this.tracing
      ? { span: undefined, ctx: undefined, owned: true }
      : startMcpSpan(this.tracer, method, target, params._meta, () => ({
          [MCP_ATTR.method]: method,
          [MCP_ATTR.sessionId]: peer.sessionId,
          [MCP_ATTR.protocolVersion]: peer.protocolVersion,
          [MCP_ATTR.jsonRpcId]: String(request.id),
          [MCP_ATTR.requestId]: requestId,
          [MCP_ATTR.networkTransport]: peer.transport === 'stdio' ? 'pipe' : 'tcp',
          [MCP_ATTR.networkProtocol]: peer.transport === 'http' ? 'http' : undefined,
          [MCP_ATTR.operation]: method === 'tools/call' ? 'execute_tool' : undefined,
          [MCP_ATTR.toolName]: tool?.name,
          [MCP_ATTR.toolCallId]: method === 'tools/call' ? String(request.id) : undefined,
          [MCP_ATTR.promptName]: method === 'prompts/get' ? target : undefined,
          // Fixed resources only: an expanded template URI carries the caller's template variables.
          [MCP_ATTR.resourceUri]:
            method === 'resources/read' && typeof params.uri === 'string' && this.registry.resources.has(params.uri)
              ? params.uri
              : undefined,
        }));
    return {
      ctx,
      span,
      owned,
      method,
      target,
      tool,
      started: performance.now(),
      request,
      peer,
      requestId,
      principal,
    };
  }

  /** Ends the observation: `status` is `ok`, `tool_error`, `invalid_arguments`, `cancelled` or an error class. */
  end(call: ObservedCall, status: string, rpcCode?: number): void {
    const seconds = (performance.now() - call.started) / 1000;
    if (call.span) endSpan(call as { span: Span; owned: boolean }, status, rpcCode);
    const series = this.seriesOf(call.method, call.target ?? '', status);
    series.duration.observe(seconds);
    // Refusals repeat in floods, so their log lines are aggregated per caller (rate limits are noted by the limiter
    // that refused); the audit entry of a risky tool is still written for each one.
    const refused = this.refusals !== undefined && (status === 'rate_limited' || status === 'forbidden');
    if (refused && status === 'forbidden')
      this.refusals!.note(`${call.method}:forbidden`, subjectOf(call), {
        target: call.target,
        requestId: call.requestId,
      });
    if (call.method !== 'tools/call') return;
    const tool = call.tool?.name ?? 'unknown';
    series.calls!.inc();
    const durationMs = Math.round(seconds * 10_000) / 10;
    const level =
      status === 'internal_error'
        ? 'error'
        : status === 'ok' || status === 'tool_error' || status === 'invalid_arguments' || status === 'cancelled'
          ? 'info'
          : refused
            ? undefined
            : 'warn';
    const logged = level !== undefined && this.entryWanted(level);
    if (!logged && !call.tool?.risk) return;
    const args =
      this.options.logging.arguments && call.tool
        ? maskArguments(call.request.params?.arguments, call.tool.sensitiveArgs)
        : undefined;
    if (logged) {
      this.writeEntry(level, {
        msg: 'tool call',
        tool,
        requestId: call.requestId,
        sessionId: call.peer.sessionId,
        jsonrpcId: call.request.id,
        transport: call.peer.transport,
        durationMs,
        status,
        ...(call.downstreams?.length ? { downstreams: call.downstreams } : {}),
        ...(args !== undefined ? { arguments: args } : {}),
      });
    }
    if (call.tool?.risk) this.writeAudit(call, call.tool, status, durationMs, args);
  }

  private writeEntry(level: 'info' | 'warn' | 'error', entry: Record<string, unknown>): void {
    if (this.lines) this.lines[level](entry);
    else if (level === 'info') this.logger.log(entry);
    else this.logger[level](entry);
  }

  /**
   * `mcp_server_operation_duration_seconds{method,target,status}` and, for tools/call, `mcp_tool_calls_total{tool,
   * status}` (the tool is the target, `unknown` for a name the registry does not have): made on first use, then kept.
   */
  private seriesOf(method: string, target: string, status: string): CallSeries {
    let byTarget = this.series.get(method);
    if (!byTarget) this.series.set(method, (byTarget = new Map()));
    let byStatus = byTarget.get(target);
    if (!byStatus) byTarget.set(target, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      found = {
        duration: this.metrics.operationDuration.labels(method, target, status),
        calls: method === 'tools/call' ? this.metrics.toolCalls.labels(target || 'unknown', status) : undefined,
      };
      byStatus.set(status, found);
    }
    return found;
  }

  /** Whether a call entry at `level` would be written at all (so none is built in vain). */
  private entryWanted(level: 'info' | 'warn' | 'error'): boolean {
    return this.lines ? this.lines.isLevelEnabled(level) : Logger.isLevelEnabled(level === 'info' ? 'log' : level);
  }

  private writeAudit(call: ObservedCall, tool: ToolEntry, outcome: string, durationMs: number, args: unknown): void {
    const event = {
      event: 'tool_call' as const,
      tool: tool.name,
      risk: tool.risk!,
      subject: subjectOf(call),
      requestId: call.requestId,
      sessionId: call.peer.sessionId,
      outcome,
      durationMs,
      ...(call.downstreams?.length ? { downstreams: call.downstreams } : {}),
      ...(args !== undefined ? { arguments: args } : {}),
    };
    try {
      const pending = this.audit?.write(event);
      if (pending) pending.catch((e: Error) => this.auditLogger.error(`audit sink failed: ${e.message}`));
    } catch (e) {
      this.auditLogger.error(`audit sink failed: ${(e as Error).message}`);
    }
  }
}

const subjectOf = (call: ObservedCall): string =>
  call.principal?.subject ?? (call.peer.transport === 'stdio' ? 'stdio' : 'anonymous');

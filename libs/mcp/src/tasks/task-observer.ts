import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Context, ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { Counter, Gauge, Histogram } from 'prom-client';
import { McpMetrics } from '../observability/mcp-metrics.service';
import { MCP_AUDIT_SINK, McpAuditSink } from '../observability/mcp-audit.sink';
import { mcpTracer, tracingActive } from '../observability/mcp-tracer';
import { ToolEntry } from '../registry/registry-entries';
import { callScopeEnabled } from '../pipeline/call-scope';
import { MCP_TASK_STORE, McpTaskRecord, McpTaskStore } from '../stores/task.store';

const SECONDS = [0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600];

/** One run as the observer follows it. @internal */
export interface ObservedRun {
  /** The context to run the tool in: under the run's span, when tracing is on. */
  ctx: Context;
  end(status: string): void;
  /** Where the run's downstream clients note their names (for its audit event), when a downstream client exists. */
  downstreams?: string[];
}

/**
 * What operators see of tasks: metrics (tasks by state, queue wait and run durations, outcomes per tool), a span per
 * run linked to the call that created the task (the tool's own spans nest under it), and an audit entry for each run
 * of a mutating tool (its creating `tools/call` has its own). Labels are tool names from the registry and fixed
 * statuses, never client input.
 * @internal
 */
@Injectable()
export class McpTaskObserver {
  private readonly logger = new Logger('McpAudit');
  private readonly tracing = tracingActive();
  private readonly tracer = mcpTracer();
  private readonly created: Counter<'tool'>;
  private readonly finished: Counter<'tool' | 'status'>;
  private readonly wait: Histogram<'tool'>;
  private readonly runTime: Histogram<'tool' | 'status'>;
  private running = 0;

  constructor(
    metrics: McpMetrics,
    @Inject(MCP_TASK_STORE) store: McpTaskStore,
    @Optional() @Inject(MCP_AUDIT_SINK) private readonly audit?: McpAuditSink,
  ) {
    const registers = [metrics.registry];
    this.created = new Counter({
      name: 'mcp_tasks_created_total',
      help: 'Tasks created, by tool.',
      labelNames: ['tool'],
      registers,
    });
    this.finished = new Counter({
      name: 'mcp_task_runs_total',
      help: 'Task runs ended on this replica, by tool and outcome (completed, failed, cancelled, handed_on, lost).',
      labelNames: ['tool', 'status'],
      registers,
    });
    this.wait = new Histogram({
      name: 'mcp_task_queue_wait_seconds',
      help: 'Time from a task’s creation to the start of its run, by tool.',
      labelNames: ['tool'],
      buckets: SECONDS,
      registers,
    });
    this.runTime = new Histogram({
      name: 'mcp_task_run_duration_seconds',
      help: 'Duration of task runs, by tool and outcome.',
      labelNames: ['tool', 'status'],
      buckets: SECONDS,
      registers,
    });
    const running = () => this.running;
    new Gauge({
      name: 'mcp_tasks',
      help: 'Tasks by state: open in the deployment (queued, running or waiting for input), running on this replica.',
      labelNames: ['state'],
      registers,
      async collect() {
        this.set({ state: 'running' }, running());
        // Read at scrape time; a store that cannot answer leaves the last value.
        const open = await store.countOpen().catch(() => undefined);
        if (open !== undefined) this.set({ state: 'open' }, open);
      },
    });
  }

  /** A task was created. */
  taskCreated(tool: string): void {
    this.created.inc({ tool });
  }

  /** A run starts: its metrics, and a span linked to the call that created the task. */
  runStarted(task: McpTaskRecord, tool: ToolEntry): ObservedRun {
    const started = Date.now();
    this.running++;
    this.wait.observe({ tool: tool.name }, Math.max(0, started - task.createdAt) / 1000);
    const span = this.tracing ? this.startSpan(task, tool) : undefined;
    const downstreams = callScopeEnabled() ? [] : undefined;
    return {
      ctx: span ? trace.setSpan(ROOT_CONTEXT, span) : context.active(),
      downstreams,
      end: (status) => {
        this.running--;
        this.finished.inc({ tool: tool.name, status });
        this.runTime.observe({ tool: tool.name, status }, (Date.now() - started) / 1000);
        if (span) {
          if (status !== 'completed') span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('mcp.task.status', status);
          span.end();
        }
        if (tool.risk) this.writeAudit(task, tool, status, Date.now() - started, downstreams);
      },
    };
  }

  private startSpan(task: McpTaskRecord, tool: ToolEntry) {
    const creator = task.caller.traceparent
      ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: task.caller.traceparent }))
      : undefined;
    return this.tracer.startSpan(
      `tasks/run ${tool.name}`,
      {
        kind: SpanKind.CONSUMER,
        links: creator ? [{ context: creator }] : [],
        attributes: { 'mcp.task.id': task.id, 'gen_ai.tool.name': tool.name, 'mcp.task.attempt': task.attempts },
      },
      // A trace of its own (the request that created the task is long answered), linked to it.
      ROOT_CONTEXT,
    );
  }

  private writeAudit(
    task: McpTaskRecord,
    tool: ToolEntry,
    outcome: string,
    durationMs: number,
    downstreams: string[] | undefined,
  ): void {
    try {
      const pending = this.audit?.write({
        event: 'task_run',
        tool: tool.name,
        risk: tool.risk!,
        subject: task.caller.principal?.subject ?? task.owner,
        requestId: task.caller.requestId,
        sessionId: task.caller.sessionId,
        taskId: task.id,
        outcome,
        durationMs,
        ...(downstreams?.length ? { downstreams } : {}),
      });
      if (pending) pending.catch((e: Error) => this.logger.error(`audit sink failed: ${e.message}`));
    } catch (e) {
      this.logger.error(`audit sink failed: ${(e as Error).message}`);
    }
  }
}

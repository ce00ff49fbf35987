import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import pino, { Logger as PinoLogger } from 'pino';

/**
 * One audited call of a mutating tool (corporate standard §9.3, see docs/compliance.md#s9: "audit" in a tool's
 * description names this event). `arguments` is present only when argument logging is on, with sensitive
 * fields masked.
 */
export interface McpAuditEvent {
  /** `tool_call`: a call answered in its request (or the call that created a task); `task_run`: a task's run. */
  event: 'tool_call' | 'task_run';
  tool: string;
  risk: 'low' | 'medium' | 'high';
  /** The caller: the token's `sub`; `stdio` for a stdio process; `anonymous` otherwise. */
  subject: string;
  requestId: string | undefined;
  sessionId: string | undefined;
  /** The task, for a `task_run`. */
  taskId?: string;
  /** `ok`, `tool_error`, or the error class (`rate_limited`, `timeout`, `forbidden`, ...). */
  outcome: string;
  durationMs: number;
  /** The downstream services the call used (their configured names), each once in first-use order; absent when none. */
  downstreams?: readonly string[];
  arguments?: unknown;
}

/**
 * Where audit events go. The default writes JSON lines with `"channel":"audit"` to the file or
 * stream named by `MCP_AUDIT_LOG`; provide your own under {@link MCP_AUDIT_SINK} to send them to
 * an audit service instead.
 *
 * @example { provide: MCP_AUDIT_SINK, useClass: KafkaAuditSink }
 */
export interface McpAuditSink {
  write(event: McpAuditEvent): void | Promise<void>;
}

/** Injection token of the {@link McpAuditSink}. */
export const MCP_AUDIT_SINK = Symbol('MCP_AUDIT_SINK');

/**
 * The default audit sink: its own pino logger, separate from the application log, so that it can
 * be routed (`MCP_AUDIT_LOG=stdout|stderr|<file path>`; default stderr, apart from the
 * application log on stdout) and told apart by its `channel` field, which application lines may
 * not carry. Writes are synchronous: an audit line is not lost when the process exits right after
 * a call.
 * @internal
 */
@Injectable()
export class PinoAuditSink implements McpAuditSink, OnApplicationShutdown {
  private logger?: PinoLogger;
  // Read when the app boots (as every other setting), not at the first audited call.
  private readonly target = process.env.MCP_AUDIT_LOG?.trim();

  write(event: McpAuditEvent): void {
    (this.logger ??= this.create()).info(event, 'audit');
  }

  onApplicationShutdown(): void {
    this.logger?.flush();
  }

  private create(): PinoLogger {
    const target = this.target;
    const dest = target === 'stdout' ? 1 : target === 'stderr' || !target ? 2 : target;
    return pino(
      {
        base: { channel: 'audit' },
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      pino.destination({ dest, sync: true, mkdir: typeof dest === 'string' }),
    );
  }
}

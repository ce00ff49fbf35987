import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { Observable, tap } from 'rxjs';
import { MCP_CONTEXT_TYPE } from '../mcp.constants';
import { McpExecutionContext } from '../context/mcp-execution-context';
import { MCP_ATTR, mcpTracer } from './mcp-tracer';

/**
 * The per-call tracing work inside Nest's pipeline: an `execute_tool {name}` span (GenAI
 * conventions, kind INTERNAL) around the tool method, child of the MCP request's span and active
 * while the method runs, so spans a tool creates itself (a database, an HTTP client) nest under
 * it. It records the outcome, never argument values. The explorer attaches it to every MCP handler
 * (not as a global interceptor); other contexts and other methods pass straight through.
 * @internal
 */
@Injectable()
export class McpTracingInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType<string>() !== MCP_CONTEXT_TYPE) return next.handle();
    const call = McpExecutionContext.create(ctx).getContext();
    if (call.method !== 'tools/call') return next.handle();
    const span = mcpTracer().startSpan(`execute_tool ${call.target}`, { kind: SpanKind.INTERNAL });
    // Nest binds the handler to the async context current when handle() is called: make it ours.
    const handled = context.with(trace.setSpan(context.active(), span), () => next.handle());
    // Without a recording span (no SDK, or not sampled) there is nothing to record: no rxjs stage at all.
    if (!span.isRecording()) return handled;
    span.setAttributes({
      [MCP_ATTR.operation]: 'execute_tool',
      [MCP_ATTR.toolName]: call.target,
      [MCP_ATTR.toolCallId]: String(call.requestId),
    });
    return handled.pipe(
      tap({
        next: (value) => {
          if ((value as { isError?: unknown } | undefined)?.isError === true) {
            span.setAttribute(MCP_ATTR.errorType, 'tool_error');
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        },
        error: (error: unknown) => {
          span.setAttribute(MCP_ATTR.errorType, (error as { name?: string })?.name ?? 'Error');
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
        complete: () => span.end(),
        unsubscribe: () => span.end(),
      }),
    );
  }
}

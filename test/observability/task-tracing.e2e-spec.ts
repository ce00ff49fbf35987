import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication, Type } from '@nestjs/common';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { startMcpTelemetry } from '@app/mcp/telemetry';
import { createMcpHttpApp } from '@app/mcp';
import { TestIssuer } from '../support/test-issuer';
import { MODERN_META, messagesOf, modernPost } from '../support/modern-post';
import { waitFor } from '../support/wait';

const TRACE = 'cafebabecafebabecafebabecafebabe';
const SPAN = '0123456789abcdef';
const WITH_TASKS = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  traceparent: `00-${TRACE}-${SPAN}-01`,
};

/**
 * What operators see of a task's run: a span `tasks/run <tool>` linked to the call that created the task (the
 * tool's work nests under it, in a trace of its own), and for a mutating tool an audit event `task_run` naming the
 * task and its outcome. The desk with its task tools, booted in this process with an in-memory span exporter.
 */
describe('tasks: the run span and the audit event', () => {
  const exporter = new InMemorySpanExporter();
  const dir = mkdtempSync(join(tmpdir(), 'task-audit-'));
  const auditFile = join(dir, 'audit.log');
  const savedEnv = { ...process.env };
  let sdk: NodeSDK | undefined;
  let issuer: TestIssuer;
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    sdk = startMcpTelemetry({
      serviceName: 'desk-tasks',
      serviceVersion: '0.1.0',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    issuer = await TestIssuer.start();
    Object.assign(process.env, issuer.env(), {
      LOG_LEVEL: 'silent',
      MCP_METRICS_PORT: 'false',
      DESK_TASK_TOOLS: 'on',
      MCP_AUDIT_LOG: auditFile,
    });
    const { AppModule } = require('../fixtures/desk/src/app.module') as { AppModule: Type<unknown> };
    app = await createMcpHttpApp(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
    await sdk?.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `name` as a task to its end; its id. */
  async function runTask(name: string, args: Record<string, unknown>): Promise<string> {
    const token = await issuer.mint({ sub: 'auditor' });
    const post = async (method: string, params: Record<string, unknown>) =>
      (await messagesOf(await modernPost(url, method, params, { token, meta: WITH_TASKS })))[0];
    const created = await post('tools/call', { name, arguments: args });
    const taskId = created.result.taskId as string;
    let status = 'working';
    for (let i = 0; i < 200 && status !== 'completed'; i++) {
      status = (await post('tasks/get', { taskId })).result.status;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('completed');
    return taskId;
  }

  it('traces a run as tasks/run <tool>, linked to the span of the call that created the task', async () => {
    const taskId = await runTask('bulk_export', { steps: 2, stepMs: 10 });
    const spans = () => exporter.getFinishedSpans();
    await waitFor(() => spans().some((s) => s.name === 'tasks/run bulk_export'), 5_000, 'the run span');
    const run = spans().find((s) => s.name === 'tasks/run bulk_export')!;
    expect(run.kind).toBe(SpanKind.CONSUMER);
    expect(run.attributes).toMatchObject({ 'mcp.task.id': taskId, 'mcp.task.status': 'completed' });
    // The creating call continued the client's trace; the run links to that call's span.
    const creator = spans().find((s) => s.name === 'tools/call bulk_export' && s.spanContext().traceId === TRACE)!;
    expect(creator).toBeDefined();
    expect(run.links.map((l) => l.context.spanId)).toEqual([creator.spanContext().spanId]);
    expect(run.spanContext().traceId).not.toBe(TRACE);
    // The tool's own work nests under the run (the desk's export starts a span of its own).
    const work = spans().filter(
      (s) => s.name === 'desk.export' && s.spanContext().traceId === run.spanContext().traceId,
    );
    expect(work.map((s) => s.parentSpanContext?.spanId)).toEqual([run.spanContext().spanId]);
  });

  it('audits the run of a mutating task tool with the task id and its outcome', async () => {
    const taskId = await runTask('provision_desk', { steps: 1, stepMs: 10 });
    const lines = () =>
      readFileSync(auditFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await waitFor(() => lines().some((l) => l.event === 'task_run'), 5_000, 'the task_run audit event');
    expect(lines().find((l) => l.event === 'task_run')).toMatchObject({
      channel: 'audit',
      event: 'task_run',
      tool: 'provision_desk',
      risk: 'medium',
      subject: 'auditor',
      taskId,
      outcome: 'completed',
    });
    // The creating call has its own entry; the read-only export has none.
    expect(lines().find((l) => l.event === 'tool_call')).toMatchObject({ tool: 'provision_desk', outcome: 'ok' });
    expect(lines().filter((l) => l.tool === 'bulk_export')).toEqual([]);
  });
});

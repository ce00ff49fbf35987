import { Injectable, Module } from '@nestjs/common';
import { McpArgs, McpCallContext, McpCtx, McpModule, McpTool } from '@app/mcp';
import { McpTestServer, startMcpTestServer } from './index';

const confirm = { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: {} } };

/** Task tools of the kind a team writes: progress and a question during the task, a question before it. */
@Injectable()
class KitTaskTools {
  @McpTool({
    name: 'slow_report',
    description: 'Builds a report in steps, asking once before the last one.',
    input: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] },
    annotations: { readOnlyHint: true },
    task: 'optional',
  })
  async report(@McpArgs() args: { steps: number }, @McpCtx() ctx: McpCallContext) {
    for (let i = 1; i < args.steps; i++) {
      ctx.reportProgress(i, args.steps, `step ${i}`);
      await new Promise((r) => setTimeout(r, 1_100)); // status messages are written at most once a second
    }
    const answer = await ctx.elicit(confirm, { key: 'go_on' });
    return `report of ${args.steps} steps (${String(answer.action)}) in task ${ctx.taskId}`;
  }

  @McpTool({
    name: 'greet_later',
    description: 'Asks a name first, then greets from the task.',
    annotations: { readOnlyHint: true },
    task: { support: 'required', asksFirst: true },
  })
  async greet(@McpCtx() ctx: McpCallContext) {
    const answer = await ctx.elicit(
      { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      { key: 'name' },
    );
    await ctx.startTask();
    return `Hello ${String((answer.content as { name?: string }).name)} from ${ctx.taskId}`;
  }
}

/** Questions with and without keys of their own before the task: each answer must reach its own question. */
@Injectable()
class KitKeyedTools {
  @McpTool({
    name: 'three_questions',
    description: 'Asks three questions (the first with a key of its own) before the task, then echoes the answers.',
    annotations: { readOnlyHint: true },
    task: { support: 'required', asksFirst: true },
  })
  async three(@McpCtx() ctx: McpCallContext) {
    const ask = (message: string, key?: string) =>
      ctx.elicit({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } }, key ? { key } : {});
    const a = await ask('A?', 'confirm');
    const b = await ask('B?');
    const c = await ask('C?');
    await ctx.startTask();
    return [a, b, c].map((x) => String((x.content as { said?: string }).said)).join(' ');
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'kit-tasks', servicePage: false })],
  providers: [KitTaskTools, KitKeyedTools],
})
class KitTasksModule {}

describe('the testing kit drives task tools to their end, in both eras', () => {
  let server: McpTestServer;
  const elicitation = async (params: { message?: string }) => ({
    action: 'accept' as const,
    content: params.message === 'Name?' ? { name: 'Ada' } : ({} as Record<string, string>),
  });

  beforeAll(async () => {
    server = await startMcpTestServer(KitTasksModule, { env: { MCP_TASK_POLL_INTERVAL_MS: '100' } });
  });
  afterAll(() => server?.close());

  it.each(['2025-11-25', '2026-07-28'] as const)(
    '%s: a task with progress and a question completes',
    async (protocol) => {
      const client = await server.connect({ protocol, elicitation });
      const outcome = await client.runTask('slow_report', { steps: 3 });
      expect(outcome.status).toBe('completed');
      expect(outcome.result?.content).toEqual([
        { type: 'text', text: `report of 3 steps (accept) in task ${outcome.taskId}` },
      ]);
      if (protocol === '2026-07-28') expect(outcome.statusMessages).toEqual(expect.arrayContaining(['step 1']));
    },
    20_000,
  );

  it.each(['2025-11-25', '2026-07-28'] as const)(
    '%s: each answer reaches its own question in the run',
    async (protocol) => {
      const client = await server.connect({
        protocol,
        elicitation: async (params: { message?: string }) => ({
          action: 'accept' as const,
          content: { said: `to-${params.message}` } as Record<string, string>,
        }),
      });
      const outcome = await client.runTask('three_questions');
      expect(outcome.result?.content).toEqual([{ type: 'text', text: 'to-A? to-B? to-C?' }]);
    },
  );

  it.each(['2025-11-25', '2026-07-28'] as const)('%s: questions before the task, then the task', async (protocol) => {
    const client = await server.connect({ protocol, elicitation });
    const outcome = await client.runTask('greet_later');
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(outcome.result?.content).toEqual([{ type: 'text', text: `Hello Ada from ${outcome.taskId}` }]);
  });
});

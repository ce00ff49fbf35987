import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { InMemoryMessageBus } from '../stores/in-memory-message.bus';
import { McpTaskRecord } from '../stores/task.store';
import { McpSession } from '../sessions/mcp-session';
import { McpTaskEvents } from './task-events';
import { McpTaskFollowers } from './task-followers';
import { McpTaskWatch } from './task-watch';
import { roomyTaskCaps, taskRecordFixture } from './task-record.fixture';

const record = (id: string, over: Partial<McpTaskRecord> = {}) =>
  taskRecordFixture({
    id,
    caller: { protocolVersion: '2025-11-25', transport: 'http', clientCapabilities: {} },
    ...over,
  });

describe('task status notifications to 2025 sessions', () => {
  function setup() {
    const store = new InMemoryTaskStore();
    const events = new McpTaskEvents(new InMemoryMessageBus());
    events.onModuleInit();
    const watch = new McpTaskWatch(store, events);
    const followers = new McpTaskFollowers(store, events, watch);
    followers.onModuleInit();
    const sent: Record<string, unknown>[] = [];
    const session = new McpSession('s1', 'http');
    session.standalone = { send: (m) => (sent.push(m as unknown as Record<string, unknown>), true) };
    return { store, events, followers, session, sent, watch };
  }

  it('tells the session of each status change once, and stops at the final one', async () => {
    const { store, events, followers, session, sent } = setup();
    await store.create(record('t1'), roomyTaskCaps);
    followers.tellSession((await store.get('t1'))!, session);
    await store.update('t1', () => ({ statusMessage: 'half way' })); // not a status change
    await events.changed('t1');
    await store.update('t1', () => ({ status: 'completed', result: { content: [] } }));
    await events.changed('t1');
    await events.changed('t1');
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'notifications/tasks/status',
        params: expect.objectContaining({ status: 'completed' }),
      }),
    ]);
  });

  it('lets go of sessions whose tasks expired without a change (no ended session held)', () => {
    const { followers, session } = setup();
    followers.tellSession(record('old', { createdAt: Date.now() - 120_000 }), session);
    followers.tellSession(record('new'), session);
    const held = (followers as unknown as { sessions: Map<string, unknown> }).sessions;
    followers.tellSession(record('newer'), session);
    expect([...held.keys()]).toEqual(['new', 'newer']);
  });

  it('follows a task for a listen stream until it is final or gone, and never one already final', async () => {
    const { store, events, followers, watch } = setup();
    await store.create(record('open'), roomyTaskCaps);
    await store.create(record('done', { status: 'completed' }), roomyTaskCaps);
    const sent: string[] = [];
    const { stop } = followers.follow([(await store.get('open'))!, (await store.get('done'))!], (t) =>
      sent.push(`${t.id} ${t.status}`),
    );
    expect(watch.size).toBe(1); // the final one is not watched
    await store.update('open', () => ({ status: 'cancelled' }));
    await events.changed('open');
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['open cancelled']);
    expect(watch.size).toBe(0);
    stop();
  });
});

import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemorySessionStore } from '../stores/in-memory-session.store';
import { McpSessionManager } from './mcp-session.manager';

describe('McpSessionManager idle sweep', () => {
  it('closes idle sessions a slice at a time, yielding to the event loop between slices', async () => {
    const store = new InMemorySessionStore();
    const options = resolveMcpOptions({ name: 'svc', version: '1.0.0', sessionIdleTimeoutMs: 60_000 });
    const manager = new McpSessionManager(store, options);
    const closed: number[] = [];
    let turn = 0;
    manager.onClose(() => closed.push(turn));
    for (let i = 0; i < 1_200; i++) manager.createHttpSession().lastSeen = Date.now() - 120_000;
    const fresh = manager.createHttpSession();

    manager['sweep']();
    // The first slice ran synchronously; the rest waits for later turns of the event loop.
    expect(store.size).toBe(1_201 - 500);
    for (let i = 0; i < 5; i++) {
      turn++;
      await new Promise((r) => setImmediate(r));
    }
    expect(store.size).toBe(1);
    expect(store.get(fresh.id)).toBe(fresh);
    expect(closed.filter((t) => t === 0)).toHaveLength(500);
    expect(Math.max(...closed)).toBeGreaterThan(0);
  });
});

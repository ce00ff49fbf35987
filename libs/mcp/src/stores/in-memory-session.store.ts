import { McpSession } from '../sessions/mcp-session';
import { McpSessionStore } from './session.store';

/** The default store: a Map. */
export class InMemorySessionStore implements McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();
  get(id: string) {
    return this.sessions.get(id);
  }
  set(session: McpSession) {
    this.sessions.set(session.id, session);
  }
  delete(id: string) {
    this.sessions.delete(id);
  }
  values() {
    return this.sessions.values();
  }
  get size() {
    return this.sessions.size;
  }
  /** In process: always reachable. */
  async ping(): Promise<void> {}
}

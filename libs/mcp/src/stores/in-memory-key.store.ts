import { randomBytes } from 'node:crypto';
import { McpKeyStore } from './key.store';

/** Keys of this process only: right for one replica; replicas need a shared store or a configured secret. */
export class InMemoryKeyStore implements McpKeyStore {
  private readonly keys = new Map<string, Buffer>();

  sharedKey(name: string): Promise<Buffer> {
    let key = this.keys.get(name);
    if (!key) this.keys.set(name, (key = randomBytes(32)));
    return Promise.resolve(key);
  }
}

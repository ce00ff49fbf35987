import { JsonRpcNotification } from '../wire/json-rpc';

/** Which changes a 2026-07-28 `subscriptions/listen` stream opted in to. @internal */
export interface ChangeFilter {
  /** `tools`, `prompts`, `resources`: their `notifications/<kind>/list_changed`. */
  lists: ReadonlySet<string>;
  /** URIs whose `notifications/resources/updated` the stream wants. */
  uris: ReadonlySet<string>;
}

/** One open listen stream on this replica. @internal */
export interface ChangeListener {
  filter: ChangeFilter;
  /** Writes a notification, already tagged with the stream's subscription id. */
  send(message: JsonRpcNotification): void;
  /** The server ends the stream (shutdown): answer the listen request and close. */
  end(): void;
}

/**
 * The `subscriptions/listen` streams this replica holds. Changes reach every replica over the message bus (as for the
 * 2025 sessions' GET streams); each replica delivers them to its own listeners whose filter asks for them.
 * @internal
 */
export class ChangeListeners {
  private readonly open = new Set<ChangeListener>();

  get size(): number {
    return this.open.size;
  }

  /** Registers `listener`; the returned function removes it. */
  add(listener: ChangeListener): () => void {
    this.open.add(listener);
    return () => this.open.delete(listener);
  }

  /** A `notifications/<kind>/list_changed`, to the streams that asked for that list. */
  deliverList(message: JsonRpcNotification): void {
    const kind = /^notifications\/(\w+)\/list_changed$/.exec(message.method)?.[1];
    if (!kind) return;
    for (const l of this.open) if (l.filter.lists.has(kind)) l.send({ ...message });
  }

  /** A resource update, to the streams subscribed to its URI. */
  deliverUri(uri: string): void {
    for (const l of this.open)
      if (l.filter.uris.has(uri))
        l.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  }

  /** Ends every stream (graceful closure on shutdown). */
  endAll(): void {
    for (const l of [...this.open]) l.end();
    this.open.clear();
  }
}

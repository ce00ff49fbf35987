/** What a 2026-07-28 client puts in every request's `_meta`. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'wire-e2e', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface ModernPostOptions {
  id?: number | string;
  token?: string;
  /** Headers replacing (or, with `undefined`, removing) the ones a conforming client sends. */
  headers?: Record<string, string | undefined>;
  /** Replaces the whole `_meta`. */
  meta?: Record<string, unknown>;
}

/**
 * POSTs one 2026-07-28 request as a conforming client writes it (the `_meta` envelope, `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`), with any of it overridden to test the server's checks.
 */
export function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  o: ModernPostOptions = {},
): Promise<Response> {
  const named = [params.name, params.uri, params.taskId].find((v) => typeof v === 'string');
  const name = named as string | undefined;
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
    ...o.headers,
  };
  const body = { jsonrpc: '2.0', id: o.id ?? 1, method, params: { ...params, _meta: o.meta ?? MODERN_META } };
  return fetch(url, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>,
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an answer: the body of a JSON answer, or every event of an SSE one. */
export async function messagesOf(res: Response): Promise<Record<string, any>[]> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
}

/**
 * Reads an SSE answer as it arrives (a listen stream stays open): `frames` fills with each event's JSON-RPC message,
 * `done` resolves when the stream ends or the read is aborted.
 */
export function followSse(res: Response): { frames: Record<string, any>[]; done: Promise<void> } {
  const frames: Record<string, any>[] = [];
  const reader = res.body!.getReader();
  const done = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done: end } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (end) return;
      buffer += Buffer.from(value!).toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const l of lines) if (l.startsWith('data: ')) frames.push(JSON.parse(l.slice(6)));
    }
  })();
  return { frames, done };
}

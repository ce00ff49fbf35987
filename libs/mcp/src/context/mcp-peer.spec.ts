import { InflightCall } from './inflight-call';
import { ErrorCode, JsonRpcMessage } from '../wire/json-rpc';
import { MessageSink } from '../wire/message-sink';
import { McpPeer } from './mcp-peer';

/** A sink that keeps what it was sent. */
function recording(): MessageSink & { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  return { sent, send: (m: JsonRpcMessage) => (sent.push(m as unknown as Record<string, unknown>), true) };
}

const peerOf = (logLevel?: 'debug' | 'warning') =>
  McpPeer.forRequest('http', '2026-07-28', { name: 'c', version: '1' }, { sampling: {} }, logLevel, undefined);

describe('McpPeer', () => {
  afterEach(() => jest.useRealTimers());

  it('is what the request declared, and has no session id', () => {
    const peer = peerOf('debug');
    expect(peer.protocolVersion).toBe('2026-07-28');
    expect(peer.era.modern).toBe(true);
    expect(peer.clientInfo).toEqual({ name: 'c', version: '1' });
    expect(peer.clientCapabilities).toEqual({ sampling: {} });
    expect(peer.sessionId).toBeUndefined();
    expect(new McpPeer('stdio').sessionId).toBeUndefined();
  });

  it('gets the answer to a server request the client answered', async () => {
    const peer = peerOf();
    const sink = recording();
    const answer = peer.request(sink, 'sampling/createMessage', { messages: [] }, 1_000);
    const [sent] = sink.sent;
    expect(sent).toMatchObject({ jsonrpc: '2.0', method: 'sampling/createMessage', params: { messages: [] } });
    expect(peer.resolveResponse({ jsonrpc: '2.0', id: sent.id as string, result: { content: 'hi' } })).toBe(true);
    await expect(answer).resolves.toEqual({ content: 'hi' });
    // Answered once: the same id again is unknown.
    expect(peer.resolveResponse({ jsonrpc: '2.0', id: sent.id as string, result: {} })).toBe(false);
  });

  it('gives each server request an id no other copy of the session uses, here or in another replica', async () => {
    // Two copies of one session in this process, and one in a fresh module instance (another replica's process).
    const [a, b] = [peerOf(), peerOf()];
    let Other!: typeof McpPeer;
    jest.isolateModules(() => ({ McpPeer: Other } = jest.requireActual<typeof import('./mcp-peer')>('./mcp-peer')));
    const c = Other.forRequest('http', '2026-07-28', undefined, {}, undefined, undefined);
    const sinks = [recording(), recording(), recording()];
    const answers = [a, b, c].map((peer, i) => peer.request(sinks[i], 'elicitation/create', {}, 1_000));
    const ids = sinks.map((s) => s.sent[0].id as string);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^srv-[\w-]{8}-1$/);
    // A copy's next request keeps its tag and counts on, so one copy never repeats an id either.
    const next = a.request(sinks[0], 'roots/list', {}, 1_000);
    expect(sinks[0].sent[1].id).toBe(ids[0].replace(/-1$/, '-2'));
    // An answer forwarded to every copy resolves only the request that asked it.
    expect(b.resolveResponse({ jsonrpc: '2.0', id: ids[0], result: { action: 'decline' } })).toBe(false);
    expect(c.resolveResponse({ jsonrpc: '2.0', id: ids[0], result: { action: 'decline' } })).toBe(false);
    expect(a.resolveResponse({ jsonrpc: '2.0', id: ids[0], result: { action: 'accept' } })).toBe(true);
    await expect(answers[0]).resolves.toEqual({ action: 'accept' });
    a.close();
    b.close();
    c.close();
    await Promise.allSettled([...answers, next]);
  });

  it('fails a server request the client answered with an error, keeping its code in data', async () => {
    const peer = peerOf();
    const sink = recording();
    const answer = peer.request(sink, 'roots/list', {}, 1_000);
    peer.resolveResponse({ jsonrpc: '2.0', id: sink.sent[0].id as string, error: { code: -1, message: 'no' } });
    await expect(answer).rejects.toMatchObject({ code: ErrorCode.ServerError, data: { clientCode: -1 } });
  });

  it('times a server request out and tells the client it is cancelled', async () => {
    jest.useFakeTimers();
    const peer = peerOf();
    const sink = recording();
    const answer = peer.request(sink, 'roots/list', {}, 50);
    const id = sink.sent[0].id;
    jest.advanceTimersByTime(50);
    await expect(answer).rejects.toMatchObject({ code: ErrorCode.Timeout });
    expect(sink.sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'Timed out' },
    });
    expect(peer.resolveResponse({ jsonrpc: '2.0', id: id as string, result: {} })).toBe(false);
  });

  it('drops a server request when its call is aborted, and refuses one for a call aborted already', async () => {
    const peer = peerOf();
    const sink = recording();
    const controller = new AbortController();
    const answer = peer.request(sink, 'elicitation/create', {}, 1_000, controller.signal);
    controller.abort();
    await expect(answer).rejects.toThrow('Call cancelled');
    expect(sink.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { reason: 'Call cancelled' } });
    await expect(peer.request(sink, 'roots/list', {}, 1_000, controller.signal)).rejects.toThrow('Call cancelled');
    expect(sink.sent).toHaveLength(2);
  });

  it('fails a server request at once when no stream can carry it', async () => {
    const peer = peerOf();
    await expect(peer.request({ send: () => false }, 'roots/list', {}, 1_000)).rejects.toThrow('No open stream');
  });

  it('cancels a call in flight by its id, and only one that runs here', () => {
    const peer = peerOf();
    const call = new InflightCall();
    peer.inflight.set(McpPeer.inflightKey(7), call);
    expect(peer.cancel('7')).toBe(false); // a string id is another call than the number
    expect(peer.cancel(7)).toBe(true);
    expect(call.cancelled).toBe(true);
    expect(call.controller.signal.aborted).toBe(true);
  });

  it('fails pending server requests and aborts calls when closed', async () => {
    const peer = peerOf();
    const call = new InflightCall();
    peer.inflight.set(McpPeer.inflightKey('a'), call);
    const answer = peer.request(recording(), 'roots/list', {}, 1_000);
    peer.close();
    await expect(answer).rejects.toMatchObject({ code: ErrorCode.ServerError });
    expect(call.controller.signal.aborted).toBe(true);
    await expect(peer.request(recording(), 'roots/list', {}, 1_000)).rejects.toMatchObject({
      code: ErrorCode.ServerError,
    });
  });

  it('wants log messages at or above the level it declared, and none when it declared no level', () => {
    const peer = peerOf('warning');
    expect(peer.silent).toBe(false);
    expect(peer.wantsLog('error')).toBe(true);
    expect(peer.wantsLog('warning')).toBe(true);
    expect(peer.wantsLog('info')).toBe(false);
    const silent = peerOf();
    expect(silent.silent).toBe(true);
    expect(silent.wantsLog('emergency')).toBe(false);
  });
});

import { nestingExceeds } from '../../wire/json-depth';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { ErrorCode, JsonRpcId, JsonRpcMessage, errorResponse, isJsonRpcId } from '../../wire/json-rpc';
import { hasModernMeta } from '../../wire/meta-keys';
import { McpDispatcher } from '../../protocol/mcp.dispatcher';
import { McpSession } from '../../sessions/mcp-session';
import { McpPeer } from '../../context/mcp-peer';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { LineSplitter } from './line-splitter';

/** A message carrying the 2026-07-28 per-request `_meta` (never a batch: the revision has none). */
const isModernMessage = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  hasModernMeta((value as { params?: unknown }).params);

/** How long calls in flight may finish after stdin closes. */
const DRAIN_MS = 30_000;

/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout, one 2025 session per process beside any number of
 * stateless 2026-07-28 requests, the same dispatcher as HTTP. Nothing but MCP messages is ever written to `output`.
 *
 * @example await app.get(McpStdioTransport).listen(); await app.close();
 */
@Injectable()
export class McpStdioTransport {
  private readonly logger = new Logger('McpStdioTransport');

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessionManager,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /**
   * Serves until `input` ends. Then server requests waiting on the client fail at once (it can no
   * longer answer), calls in flight get up to 30 s to finish and write their results, and it resolves.
   */
  async listen(input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
    const session = new McpSession('stdio', 'stdio');
    // write() returning false only means "buffered"; the message is still delivered.
    const write = (line: string) => (output.writable ? (output.write(`${line}\n`), true) : false);
    const sink = { send: (m: JsonRpcMessage) => !session.closed && write(JSON.stringify(m)) };
    session.standalone = sink;
    this.sessions.attachLocal(session);
    const running = new Set<Promise<void>>();
    const limit = this.options.maxRequestBytes;
    const splitter = new LineSplitter(
      limit,
      (line) => {
        const work = this.handleLine(line, session, sink, write).catch((e) =>
          this.logger.error(`stdio message failed: ${(e as Error).message}`),
        );
        running.add(work);
        void work.finally(() => running.delete(work));
      },
      () =>
        write(
          JSON.stringify(
            errorResponse(null, ErrorCode.PayloadTooLarge, `Payload too large: the limit is ${limit} bytes`),
          ),
        ),
    );
    await new Promise<void>((resolve) => {
      input.on('data', (chunk: Buffer | string) =>
        splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
      );
      input.once('end', resolve);
      input.once('close', resolve);
      input.once('error', resolve);
    });
    splitter.end();
    session.failPending('The client closed stdin');
    await Promise.race([Promise.allSettled([...running]), sleep(DRAIN_MS, undefined, { ref: false })]);
    this.sessions.close(session);
  }

  /** 2026-07-28 requests running on this stdio, by id: `notifications/cancelled` aborts them. */
  private readonly modernInflight = new Map<string, AbortController>();

  /**
   * A 2026-07-28 request: served statelessly beside the 2025 session of this process (a client may probe with
   * `server/discover` and fall back to `initialize`). Its messages stop the moment the client cancels it.
   */
  private async modern(
    value: { id?: JsonRpcId },
    sink: { send(m: JsonRpcMessage): boolean },
    rid: string,
    write: (l: string) => unknown,
  ): Promise<void> {
    const cancel = new AbortController();
    const key = isJsonRpcId(value.id) ? McpPeer.inflightKey(value.id) : undefined;
    if (key) this.modernInflight.set(key, cancel);
    try {
      const own = { send: (m: JsonRpcMessage) => !cancel.signal.aborted && sink.send(m) };
      const outcome = await this.dispatcher.dispatchModern(value, {
        transport: 'stdio',
        sink: own,
        rid,
        closed: cancel.signal,
      });
      if (outcome && !cancel.signal.aborted) write(outcome.body);
    } finally {
      if (key && this.modernInflight.get(key) === cancel) this.modernInflight.delete(key);
    }
  }

  /** A `notifications/cancelled` for a 2026-07-28 request running here: true when it was one. */
  private cancelModern(value: unknown): boolean {
    const n = value as { method?: unknown; id?: unknown; params?: { requestId?: unknown } } | null;
    if (n?.method !== 'notifications/cancelled' || n.id !== undefined || !isJsonRpcId(n.params?.requestId))
      return false;
    const call = this.modernInflight.get(McpPeer.inflightKey(n.params.requestId));
    call?.abort();
    return call !== undefined;
  }

  private async handleLine(
    line: string,
    session: McpSession,
    sink: { send(m: JsonRpcMessage): boolean },
    write: (l: string) => unknown,
  ): Promise<void> {
    if (line.trim() === '') return;
    let value: unknown;
    const { maxJsonDepth } = this.options.limits;
    if (nestingExceeds(line, maxJsonDepth)) {
      const data = { reason: 'too_deep', maxDepth: maxJsonDepth };
      const message = `Invalid Request: JSON nested deeper than ${maxJsonDepth} levels`;
      write(JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, message, data)));
      return;
    }
    try {
      value = JSON.parse(line);
    } catch {
      write(JSON.stringify(errorResponse(null, ErrorCode.ParseError, 'Parse error: the line is not valid JSON')));
      return;
    }
    // stdio has no headers: each message gets its own correlation id.
    const rid = randomUUID();
    if (this.cancelModern(value)) return;
    if (isModernMessage(value)) return this.modern(value as { id?: JsonRpcId }, sink, rid, write);
    const outcome = Array.isArray(value)
      ? await this.dispatcher.dispatchBatch(value, session, sink, rid)
      : await this.dispatcher.dispatch(value, session, sink, rid);
    if (outcome) write(outcome.body);
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../interfaces/mcp-module-options.interface';
import { ErrorCode, JsonRpcMessage, errorResponse } from '../../protocol/json-rpc';
import { McpDispatcher } from '../../protocol/mcp.dispatcher';
import { McpSession } from '../../protocol/mcp-session';
import { McpSessionManager } from '../../protocol/mcp-session.manager';

/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout, one session per process, the
 * same dispatcher as HTTP. Nothing but MCP messages is ever written to `output`.
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

  /** Serves until `input` ends, then waits for calls in flight and resolves. */
  async listen(input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
    const session = new McpSession('stdio', 'stdio');
    const write = (line: string) => output.writable && output.write(`${line}\n`);
    const sink = { send: (m: JsonRpcMessage) => (session.closed ? false : write(JSON.stringify(m)) !== false) };
    session.standalone = sink;
    this.sessions.attachLocal(session);
    const running = new Set<Promise<void>>();
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const work = this.handleLine(line, session, sink, write).catch((e) => this.logger.error(`stdio message failed: ${(e as Error).message}`));
      running.add(work);
      void work.finally(() => running.delete(work));
    }
    await Promise.allSettled([...running]);
    this.sessions.close(session);
  }

  private async handleLine(line: string, session: McpSession, sink: { send(m: JsonRpcMessage): boolean }, write: (l: string) => unknown): Promise<void> {
    if (Buffer.byteLength(line) > this.options.maxRequestBytes) {
      write(JSON.stringify(errorResponse(null, ErrorCode.PayloadTooLarge, `Payload too large: the limit is ${this.options.maxRequestBytes} bytes`)));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      write(JSON.stringify(errorResponse(null, ErrorCode.ParseError, 'Parse error: the line is not valid JSON')));
      return;
    }
    const outcome = Array.isArray(value)
      ? await this.dispatcher.dispatchBatch(value, session, sink)
      : await this.dispatcher.dispatch(value, session, sink);
    if (outcome) write(outcome.body);
  }
}

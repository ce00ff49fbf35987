import { McpClientLogger } from '../context/call-context.interface';
import { McpPeer } from '../context/mcp-peer';
import { LoggingLevel } from '../wire/logging-level';
import { MessageSink } from '../wire/message-sink';

/**
 * The `ctx.log` of one call: `notifications/message` on the call's stream, at the levels the peer asked
 * for, and nothing once the call has ended (`call.ended` is read at each message).
 * @internal
 */
export function createClientLogger(
  peer: McpPeer,
  sink: MessageSink,
  call: { readonly ended: boolean },
): McpClientLogger {
  const send = (level: LoggingLevel, data: unknown, logger?: string): void => {
    if (call.ended || !peer.wantsLog(level)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger) params.logger = logger;
    sink.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  };
  // A plain object of small functions (destructuring `ctx.log` keeps working). Not a lazy getter: a context
  // object with an accessor measured a p99 four times higher under load (14 ms against 4 at 16 connections).
  return {
    debug: (data, logger) => send('debug', data, logger),
    info: (data, logger) => send('info', data, logger),
    notice: (data, logger) => send('notice', data, logger),
    warning: (data, logger) => send('warning', data, logger),
    error: (data, logger) => send('error', data, logger),
    critical: (data, logger) => send('critical', data, logger),
    alert: (data, logger) => send('alert', data, logger),
    emergency: (data, logger) => send('emergency', data, logger),
  };
}

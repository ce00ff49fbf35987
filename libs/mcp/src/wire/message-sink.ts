import { JsonRpcMessage } from './json-rpc';

/**
 * Where the engine writes messages for a client: a POST's response stream, the standalone GET
 * stream, or stdout. `send` returns false when nothing could take the message.
 * @internal
 */
export interface MessageSink {
  send(message: JsonRpcMessage): boolean;
  /** Closes the connection but not the stream (SSE polling); absent where there is no such thing. */
  closeConnection?(): void;
}

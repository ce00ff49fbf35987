// Reading an MCP answer body that may come as JSON or as an SSE stream: some frameworks answer every POST with
// `text/event-stream` by default (the SDK 1.x stateful transport, fastmcp). Used by the peers' checks and by the
// load generator's `peer-call` verification; our own scenarios keep their strict JSON checks.

/**
 * The JSON-RPC message of an answer: the body parsed as JSON, or the data of the one SSE event that carries
 * data (comment lines, `id:`/`event:`/`retry:` fields and data-less events are skipped). Undefined when the body
 * is neither, or when an SSE stream carries more or fewer than one message.
 */
export function parseAnswer(text) {
  const body = text.trimStart();
  if (body.startsWith('{') || body.startsWith('[')) {
    try {
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const events = [];
  let data;
  for (const line of body.split(/\r?\n/)) {
    if (line === '') {
      if (data !== undefined) events.push(data.join('\n'));
      data = undefined;
    } else if (line.startsWith('data:')) {
      (data ??= []).push(line.slice(line[5] === ' ' ? 6 : 5));
    }
  }
  if (data !== undefined) events.push(data.join('\n'));
  const messages = events.filter((d) => d.trim() !== '');
  if (messages.length !== 1) return undefined;
  try {
    return JSON.parse(messages[0]);
  } catch {
    return undefined;
  }
}

/** True when `msg` is a JSON-RPC success answering the bench's `echo` call with 'hello' (no `isError`). */
export function isEchoAnswer(msg) {
  return (
    msg?.jsonrpc === '2.0' &&
    msg.error === undefined &&
    msg.result?.isError !== true &&
    msg.result?.content?.[0]?.type === 'text' &&
    msg.result.content[0].text === 'hello'
  );
}

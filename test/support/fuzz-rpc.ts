import * as fc from 'fast-check';
import {
  deep,
  key,
  Obj,
  obj,
  objOrGarbage,
  oddNumber,
  plausible,
  PROTO_KEYS,
  Raw,
  someOf,
  text,
  toText,
  value,
  nonJson,
  BAD_UTF8,
} from './fuzz-values';
import { abusive } from './fuzz-abuse';

/**
 * Generators for fuzzing the MCP server with malformed JSON-RPC: requests to real methods with garbage params,
 * envelopes, responses, batches, non-JSON and invalid UTF-8. The values inside come from fuzz-values.ts; what the
 * server must answer is fuzz-oracle.ts.
 */

const URIS = [
  'desk://catalog/categories',
  'desk://tickets/HD-1',
  'desk://tickets/',
  'desk://tickets/{id}',
  'desk://tickets/HD-1/../../etc/passwd',
  'desk://tickets/%00',
  'desk://tickets/%E0%A4%A',
  'desk://tickets/HD-1?x=1#y',
  'DESK://TICKETS/HD-1',
  'desk://',
  'desk:',
  'file:///etc/passwd',
  'http://127.0.0.1:1/',
  'javascript:alert(1)',
  'data:text/plain,hi',
  'urn:x',
  '',
  '  ',
  '\u0000',
  `desk://tickets/${'%'.repeat(300)}`,
  'desk://tickets/__proto__',
];
const uri = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...URIS) },
  text,
  fc.webUrl(),
  value,
  fc.string({ maxLength: 10 }).map((s) => `desk://tickets/${s}`),
);
const TOOLS = ['search_tickets', 'get_ticket', 'create_ticket', 'close_ticket', 'draft_reply'];
const TOOL_FIELDS = [
  'query',
  'status',
  'limit',
  'id',
  'title',
  'description',
  'category',
  'priority',
  'requester',
  'idempotencyKey',
  'resolution',
];
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'DEBUG', 'trace', ''];
const cursor = obj({ cursor: fc.oneof(text, value) });
/** Params per method: valid methods, garbage params. export_tickets (a 1 s tool) only with arguments it must refuse. */
const PARAMS: Record<string, fc.Arbitrary<unknown>> = {
  'tools/call': fc.oneof(
    {
      weight: 5,
      arbitrary: obj({
        name: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TOOLS) }, text, value),
        arguments: objOrGarbage(TOOL_FIELDS),
        _meta: objOrGarbage(['progressToken']),
      }),
    },
    fc.oneof(text, fc.integer(), fc.constant(null), fc.array(value, { maxLength: 2 })).map(
      (a) =>
        new Obj([
          ['name', 'export_tickets'],
          ['arguments', a],
        ]),
    ),
  ),
  'resources/read': obj({ uri }),
  'resources/subscribe': obj({ uri }),
  'resources/unsubscribe': obj({ uri }),
  'prompts/get': obj({
    name: fc.oneof({ weight: 3, arbitrary: fc.constant('triage_ticket') }, text, value),
    arguments: objOrGarbage(['ticketId', 'tone']),
  }),
  'completion/complete': obj({
    ref: fc.oneof(
      fc.constant(
        new Obj([
          ['type', 'ref/prompt'],
          ['name', 'triage_ticket'],
        ]),
      ),
      fc.constant(
        new Obj([
          ['type', 'ref/resource'],
          ['uri', 'desk://tickets/{id}'],
        ]),
      ),
      objOrGarbage(
        ['type', 'name', 'uri'],
        fc.oneof(fc.constantFrom('ref/prompt', 'ref/resource', 'triage_ticket', 'desk://tickets/{id}'), plausible),
      ),
    ),
    argument: objOrGarbage(
      ['name', 'value'],
      fc.oneof(fc.constantFrom('ticketId', 'tone', 'id', 'hd', 'F'), plausible),
    ),
    context: objOrGarbage(['arguments']),
  }),
  'logging/setLevel': obj({ level: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...LEVELS) }, value) }),
  initialize: obj({
    protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-03-26', '1999-01-01'), value),
    capabilities: value,
    clientInfo: value,
  }),
  // Never the id of a request in flight (that would legitimately cancel it): a constant or a non-primitive.
  'notifications/cancelled': obj({
    requestId: fc.oneof(
      fc.constantFrom('cancel:nothing-running', -987654321),
      { weight: 2, arbitrary: someOf(PROTO_KEYS, value) },
      fc.array(value, { minLength: 1, maxLength: 2 }),
    ),
    reason: text,
  }),
  'tools/list': cursor,
  'prompts/list': cursor,
  'resources/list': cursor,
  'resources/templates/list': cursor,
  ping: value,
};
const METHODS = [
  ...Object.keys(PARAMS),
  'notifications/initialized',
  'notifications/progress',
  'sampling/createMessage',
  'roots/list',
  'tools/explode',
  '',
  'rpc.discover',
  'TOOLS/LIST',
  'ping ',
];
const validId = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }));
const anyId = fc.oneof({ weight: 3, arbitrary: validId }, fc.constant(null), oddNumber, fc.double(), text, value);
const extras = fc.array(fc.tuple(key, value), { maxLength: 2 });

/** A well-formed request or notification to a real method, with garbage (or valid-looking) params. */
const call = fc.constantFrom(...Object.keys(PARAMS)).chain((method) =>
  fc
    .tuple(
      // Mostly requests; notifications/* mostly as notifications (no id).
      method.startsWith('notifications/')
        ? fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, validId)
        : fc.option(validId, { freq: 6 }),
      PARAMS[method],
      fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, extras),
    )
    .map(
      ([id, params, more]) =>
        new Obj([
          ['jsonrpc', '2.0'],
          ...(id === null ? [] : ([['id', id]] as [string, unknown][])),
          ['method', method],
          ['params', params],
          ...(more ?? []),
        ]),
    ),
);
/** Every envelope field optional, of any type. */
const envelope = obj(
  {
    jsonrpc: fc.oneof(
      { weight: 12, arbitrary: fc.constant('2.0') },
      fc.constantFrom('1.0', '2', ' 2.0', '2.0\u0000', ''),
      fc.constantFrom(new Raw('2.0'), new Raw('2')),
      value,
    ),
    id: anyId,
    method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, text, value),
    params: fc.oneof(value, deep),
    [PROTO_KEYS[0]]: value,
  },
  6,
);
const response = fc
  .tuple(
    anyId,
    fc.oneof(
      obj({ result: value }),
      obj({
        error: fc.oneof(
          obj({ code: fc.oneof(fc.integer(), oddNumber, value), message: fc.oneof(text, value), data: value }),
          value,
        ),
      }),
      obj({ result: value, error: value }),
    ),
  )
  .map(([id, body]) => new Obj([['jsonrpc', '2.0'], ['id', id], ...body.entries]));
const message = fc.oneof(
  { weight: 9, arbitrary: call },
  { weight: 3, arbitrary: envelope },
  { weight: 1, arbitrary: response },
);
/** `initialize` inside a batch, valid or not. */
const batchedInitialize = obj({ jsonrpc: fc.oneof(fc.constant('2.0'), value), id: anyId, params: value }, 2).map(
  (o) => new Obj([['method', 'initialize'], ...o.entries]),
);
const batch = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: message },
    value,
    batchedInitialize,
    fc.array(message, { maxLength: 2 }),
    fc.constant([]),
  ),
  { maxLength: 5 },
);
/** Invalid UTF-8 inside a string value, or anywhere in a message. */
const badUtf8 = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...BAD_UTF8),
      fc.constantFrom(
        '{"jsonrpc":"2.0","id":"#","method":"ping"}',
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_tickets","arguments":{"query":"#"}}}',
        '{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"desk://tickets/#"}}',
        '{"jsonrpc":"2.0","method":"#"}',
      ),
    )
    .map(([bad, t]) =>
      Buffer.concat([Buffer.from(t.slice(0, t.indexOf('#'))), bad, Buffer.from(t.slice(t.indexOf('#') + 1))]),
    ),
  fc
    .tuple(
      message.map(toText),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...BAD_UTF8)), { minLength: 1, maxLength: 3 }),
    )
    .map(([t, cuts]) => {
      let bytes = Buffer.from(t);
      for (const [at, bad] of cuts)
        bytes = Buffer.concat([
          bytes.subarray(0, at % (bytes.length + 1)),
          bad,
          bytes.subarray(at % (bytes.length + 1)),
        ]);
      return bytes;
    }),
);

/** One fuzzed body / line, as bytes. */
export const payload: fc.Arbitrary<Buffer> = fc
  .oneof(
    { weight: 10, arbitrary: message.map(toText) },
    { weight: 1, arbitrary: abusive },
    { weight: 2, arbitrary: batch.map(toText) },
    { weight: 1, arbitrary: value.map(toText) },
    { weight: 1, arbitrary: nonJson },
    { weight: 1, arbitrary: badUtf8 },
  )
  .map((p) => (typeof p === 'string' ? Buffer.from(p) : p));

import * as fc from 'fast-check';
import { resolve } from 'node:path';

/**
 * Generators, an oracle and wire checks for fuzzing the MCP server with malformed JSON-RPC.
 * Messages are built as JSON text (not via JSON.stringify) so the wire can carry what JS values
 * cannot: `-0`, `1e400`, duplicate and `__proto__` keys, nesting far deeper than the stack.
 */

/** The default request body / stdio line limit (MCP_MAX_REQUEST_BYTES). */
export const LIMIT = 1_048_576;

/** Verbatim JSON text inside a generated value. */
export class Raw {
  constructor(readonly text: string) {}
}
/** A JSON object as ordered entries, so duplicate and `__proto__` keys reach the wire. */
export class Obj {
  constructor(readonly entries: [string, unknown][]) {}
}

export function toText(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toText(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toText).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'toJSON'];
const key = fc.oneof(
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const oddChars = fc.constantFrom(
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ude00b',
  '\ud83d\ude00',
  '\u0000',
  '\u2028\u2029',
  '\ufeff',
  '\uffff',
  'e\u0301',
  '\u202e',
);
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 16 }) },
  fc.string({ unit: 'binary', maxLength: 16 }),
  oddChars,
  fc.integer({ min: 257, max: 20_000 }).map((n) => 'x'.repeat(n)),
);
const oddNumber = fc
  .constantFrom(
    '-0',
    '-0.0',
    '0e0',
    '1e400',
    '-1e400',
    '1e-400',
    '9007199254740993',
    '123456789012345678901234567890',
    '1.0',
    '1.5',
    '-1',
    '1E2',
    '4294967296',
    '-9007199254740992',
    '1e21',
  )
  .map((t) => new Raw(t));
const NESTS: [string, string, string][] = [
  ['[', ']', ''],
  ['{"a":', '}', '1'],
  ['{"a":[', ']}', ''],
  ['{"__proto__":', '}', 'null'],
  ['[{"constructor":', '}]', '{}'],
];
/** Nesting 100 to 100,000 levels deep, kept well under the body limit. */
const deep = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100, max: 2_000 }) }, fc.integer({ min: 2_000, max: 100_000 })),
    fc.constantFrom(...NESTS),
  )
  .map(([d, [open, close, inner]]) => {
    const depth = Math.min(d, Math.floor(600_000 / (open.length + close.length)));
    return new Raw(open.repeat(depth) + inner + close.repeat(depth));
  });
const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), oddNumber, text);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((e) => new Obj(e)) },
  ),
}));

/** An object with some of `keys` (or odd keys) set to plausible or garbage values. */
const plausible = fc.oneof(
  fc.constantFrom('HD-1', 'HD-2', 'HD-999', 'vpn', 'open', 'closed', 'high', 'low', 'network', 'friendly', ''),
  fc.integer({ min: -5, max: 200 }),
  value,
);
const someOf = (keys: string[], v: fc.Arbitrary<unknown> = plausible) =>
  fc
    .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, key), v), { maxLength: 5 })
    .map((e) => new Obj(e));
const objOrGarbage = (keys: string[], v?: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: someOf(keys, v) }, value);
const obj = (fields: Record<string, fc.Arbitrary<unknown>>, freq = 4) =>
  fc
    .tuple(
      ...Object.entries(fields).map(([k, a]) =>
        fc.option(
          a.map((x) => [k, x] as [string, unknown]),
          { freq },
        ),
      ),
    )
    .map((e) => new Obj(e.filter((x) => x !== null) as [string, unknown][]));

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
const NON_JSON = [
  '',
  ' ',
  '{',
  '}',
  '[',
  'null',
  'true',
  '1',
  '"str"',
  'NaN',
  'Infinity',
  "{'a':1}",
  '{"jsonrpc":"2.0"',
  '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage',
  '{"a":1}{"b":2}',
  '{"jsonrpc":"2.0","id":1,"method":"ping",}',
  '\u0000',
  '<html>',
  'GET / HTTP/1.1',
];
const nonJson = fc.oneof(
  fc.constantFrom(...NON_JSON),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);
const BAD_UTF8 = [
  [0xff],
  [0xfe],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
].map((b) => Buffer.from(b));
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
    { weight: 2, arbitrary: batch.map(toText) },
    { weight: 1, arbitrary: value.map(toText) },
    { weight: 1, arbitrary: nonJson },
    { weight: 1, arbitrary: badUtf8 },
  )
  .map((p) => (typeof p === 'string' ? Buffer.from(p) : p));

// ---- the oracle: what a conforming server answers ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Ids the server takes (documented in protocol/json-rpc.ts): strings up to 256 characters, safe integers. */
const isId = (id: unknown): id is string | number =>
  (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id));
const isNotification = (v: Record<string, unknown>) =>
  typeof v.method === 'string' && !('id' in v) && (v.params === undefined || isObject(v.params));
const isResponse = (v: Record<string, unknown>) =>
  'id' in v &&
  !('method' in v) &&
  'result' in v !== 'error' in v &&
  (('result' in v && isObject(v.result) && isId(v.id)) ||
    (isObject(v.error) &&
      Number.isInteger(v.error.code) &&
      typeof v.error.message === 'string' &&
      (isId(v.id) || v.id === null)));
/** True for what must never be answered: a valid notification or response. */
const silent = (v: unknown) => isObject(v) && v.jsonrpc === '2.0' && (isNotification(v) || isResponse(v));

export interface Expected {
  answers: 0 | 1;
  /** Over the size limit: one -32005. */
  tooLarge?: boolean;
  /** A well-formed request: the answer carries exactly this id. */
  requestId?: string | number;
  /** Any id of the message the answer may echo (else null). */
  echo?: unknown;
  /** A batch the session accepts: an array answer with one response per item that is not a notification or response. */
  batch?: boolean;
  items?: number;
}

export function expected(bytes: Buffer, batches: boolean, stdio: boolean): Expected {
  // Over HTTP an initialize in a session is refused by the transport (400, -32600, id null), like a bad header.
  const transportRefusal = (o: Record<string, unknown>) => !stdio && o.method === 'initialize' && 'id' in o;
  if (bytes.length > LIMIT) return { answers: 1, tooLarge: true };
  let text = bytes.toString('utf8');
  if (stdio) text = text.replace(/\r$/, '');
  if (stdio && text.trim() === '') return { answers: 0 };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { answers: 1 };
  }
  if (Array.isArray(v)) {
    if (!batches || v.length === 0) return { answers: 1 };
    const items = v.filter((x) => !silent(x)).length;
    return { answers: items ? 1 : 0, batch: true, items };
  }
  if (silent(v)) return { answers: 0 };
  const o = isObject(v) ? v : {};
  const request =
    o.jsonrpc === '2.0' && typeof o.method === 'string' && isId(o.id) && (o.params === undefined || isObject(o.params));
  return { answers: 1, requestId: request && !transportRefusal(o) ? (o.id as string | number) : undefined, echo: o.id };
}

/** Why `m` is not a well-formed JSON-RPC 2.0 response with an MCP-shaped result or error, or undefined. */
export function responseProblem(m: unknown): string | undefined {
  if (!isObject(m)) return 'not an object';
  if (m.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  if (extra.length) return `unexpected members ${extra.join(',')}`;
  if (!('id' in m) || !(m.id === null || typeof m.id === 'string' || Number.isInteger(m.id)))
    return `bad id ${JSON.stringify(m.id)}`;
  if ('result' in m === 'error' in m) return 'needs exactly one of result and error';
  if ('result' in m)
    return m.id === null ? 'result with a null id' : isObject(m.result) ? undefined : 'result is not an object';
  const e = m.error;
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string')
    return 'error needs an integer code and a string message';
  const extraE = Object.keys(e).filter((k) => !['code', 'message', 'data'].includes(k));
  return extraE.length ? `unexpected error members ${extraE.join(',')}` : undefined;
}

/** A server-initiated message: only notifications are expected (the fuzz client declares no capabilities). */
export const isServerNotification = (m: unknown) =>
  isObject(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' && !('id' in m);

/**
 * HTTP status per JSON-RPC error code in a 2025 session under the default (`spec`) profile: the error in a 200
 * answer, except malformed requests, scopes, the limits and unavailability, which stay HTTP errors.
 */
export const STATUS: Record<number, number> = {
  [-32700]: 400,
  [-32600]: 400,
  [-32601]: 200,
  [-32602]: 200,
  [-32603]: 200,
  [-32000]: 200,
  [-32001]: 403,
  [-32002]: 200,
  [-32003]: 429,
  [-32004]: 200,
  [-32005]: 413,
  [-32006]: 503,
  [-32007]: 200,
};

const ROOT = resolve(__dirname, '../..');
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s+at /],
  ['a stack frame', /\bat [\w.<>$]+ \([^)]*:\d+/],
  ['an error with a path', /Error:[^\n"]*\/[\w.-]+\//],
  ['a /work/ path', /\/work\//],
  ['a node_modules path', /node_modules/],
  ['a source location', /\.(?:ts|js|mjs|cjs):\d+/],
  ['a system path', /\/(?:home|root|usr|opt|proc)\//],
];

/** What `out` leaks (a stack, a path, a secret) that `input` did not itself contain, or undefined. */
export function leakIn(out: string, input: string, secrets: string[]): string | undefined {
  const unescape = (s: string) => s.replace(/\\n/g, '\n').replace(/\\\//g, '/');
  const o = unescape(out);
  const i = unescape(input);
  for (const s of [...secrets, ROOT])
    if (s && o.includes(s) && !i.includes(s)) return `a secret or the project path (${s.slice(0, 12)}...)`;
  return LEAKS.find(([, re]) => re.test(o) && !re.test(i))?.[0];
}

/** A short printable form of a payload for failure messages. */
export const show = (bytes: Buffer) => {
  const t = JSON.stringify(bytes.toString('utf8'));
  return `${bytes.length} bytes: ${t.length > 400 ? `${t.slice(0, 300)} ... ${t.slice(-80)}` : t}`;
};

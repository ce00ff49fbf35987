import * as fc from 'fast-check';

/** A request id the server takes (a short string or an integer). */
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }));

/**
 * What the second abuse review sent: methods nobody serves (made up, long), ids and progress tokens far over the
 * 256-character bound, and `_meta` nested 65 to 400,000 levels (a hair over the limit, or far).
 */
export const abusive = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.integer({ min: 257, max: 20_000 }).map((n) => 'm'.repeat(n)),
      ),
      id,
    )
    .map(([method, id]) => JSON.stringify({ jsonrpc: '2.0', id, method: `x/${method}` })),
  fc
    .integer({ min: 257, max: 200_000 })
    .map((n) => JSON.stringify({ jsonrpc: '2.0', id: 'i'.repeat(n), method: 'ping' })),
  fc.tuple(fc.integer({ min: 257, max: 900_000 }), id).map(([n, id]) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_tickets', arguments: { query: 'vpn' }, _meta: { progressToken: 't'.repeat(n) } },
    }),
  ),
  fc
    .tuple(fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 1_000, max: 400_000 })), id)
    .map(
      ([depth, id]) =>
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/list","params":{"_meta":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
    ),
);

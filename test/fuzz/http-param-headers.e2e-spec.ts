import * as fc from 'fast-check';
import { RunningServer } from '../support/server-process';
import { startConformanceFixture } from '../support/conformance-fixture';
import { MODERN_META } from '../support/modern-post';
import { ENV, SEED } from '../support/fuzz-harness';

/** The forms an integer header can take that a gateway may read as another number than the tool does. */
const noncanonical = (n: number) =>
  fc.constantFrom(
    `0x${n.toString(16)}`,
    `${n}e0`,
    `${n / 10}e1`,
    `+${n}`,
    `0${n}`,
    `${n}.0`,
    `0b${n.toString(2)}`,
    `0o${n.toString(8)}`,
    `${n}_`,
    `-0${n}`,
    `${n},${n}`,
  );

/**
 * Abuse review, round two: `Mcp-Param-Count: 0x3`, `1e3` or `+3` were taken as 3 or 1000, while a gateway reading the
 * header with `parseInt` sees something else. Fuzzed: an integer argument with its header in canonical decimal form
 * (accepted) or in any other form of the same number (-32020), on the conformance fixture's `test_header_params`.
 */
describe('fuzz: integer Mcp-Param-* headers in canonical form only', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startConformanceFixture(ENV);
  });
  afterAll(() => server.stop());

  const call = (count: number, header: string) =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'test_header_params',
        'mcp-param-region': 'eu',
        'mcp-param-count': header,
        ...(server.token ? { authorization: `Bearer ${server.token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'test_header_params', arguments: { region: 'eu', count }, _meta: MODERN_META },
      }),
    });

  it('accepts canonical decimal and refuses every other form with 400 -32020', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.constant(n), fc.option(noncanonical(n)))),
        async ([n, odd]) => {
          const res = await call(n, odd ?? String(n));
          const body = (await res.json()) as { result?: unknown; error?: { code: number } };
          if (odd === null) {
            expect({ status: res.status, ok: body.result !== undefined }).toEqual({ status: 200, ok: true });
          } else {
            expect({ status: res.status, code: body.error?.code, sent: odd }).toEqual({
              status: 400,
              code: -32020,
              sent: odd,
            });
          }
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  }, 60_000);
});

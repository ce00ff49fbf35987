import { Check, CheckContext, fail, manual, pass, passInPart } from '../check-context';
import { StandardVersion } from '../compliance.types';
import { evidence } from '../http-probe';
import { documentsTimeout } from './documented-terms';
import { readDirFile } from './static.checks';
import { scanOutboundHttp } from './outbound-http.scan';
import { counted } from '../counted';

const UNITS: Record<string, number> = { b: 1, bytes: 1, kb: 1_000, kib: 1_024, mb: 1_000_000, mib: 1_048_576 };
/** A size the README gives for requests: "request 1 MiB", "payload limit: 512 KiB", "body … 1048576 bytes". */
const DOCUMENTED_SIZE = /(?:request|payload|body)[^\n]{0,60}?(\d+(?:\.\d+)?)\s*(MiB|KiB|MB|KB|bytes|B)\b/i;
/** What is sent when the README gives no size: larger than any sensible JSON-RPC request limit. */
const UNDOCUMENTED_PROBE_BYTES = 8 * 1_048_576;

/** The request size limit the folder's README documents, in bytes, with the words that say it. */
function documentedLimit(ctx: CheckContext): { bytes: number; words: string } | undefined {
  const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
  const m = readme ? DOCUMENTED_SIZE.exec(readme) : null;
  return m ? { bytes: Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()]), words: m[0].trim() } : undefined;
}

/** A `ping` padded to `bytes`: what a server with that limit must refuse (413, or `-32005`). */
async function oversized(
  ctx: CheckContext,
  standard: StandardVersion,
  bytes: number,
): Promise<{ refused: boolean; line: string }> {
  const version = standard === '1.2' ? '2025-11-25' : '2026-07-28';
  const { sessionId } = standard === '1.2' ? await ctx.legacy() : { sessionId: undefined };
  const head = `{"jsonrpc":"2.0","id":"too-large","method":"ping","params":{"padding":"`;
  const body = `${head}${'x'.repeat(Math.max(0, bytes - head.length - 3))}"}}`;
  const headers = {
    'mcp-protocol-version': version,
    'mcp-method': 'ping',
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  };
  try {
    const answer = await ctx.probe.postRaw(body, headers);
    const refused = answer.status === 413 || answer.body?.error?.code === -32005;
    return { refused, line: `a ${body.length}-byte request; ${evidence(answer, answer.body?.error ?? answer.text)}` };
  } catch (error) {
    // Refusing by closing the connection still refuses, though the client learns nothing.
    return {
      refused: true,
      line: `a ${body.length}-byte request; the server closed the connection (${(error as Error).message})`,
    };
  }
}

/** Limits as documented and as enforced, and what the server says of its authorisation. */
export const LIMITS_CHECKS: Record<string, Check> = {
  'http.payload-documented': async (ctx, standard) => {
    if (!ctx.dir) return manual('pass --dir <the server’s folder> to read the documented limit in its README.md');
    const limit = documentedLimit(ctx);
    if (!limit) return fail('README.md gives no request size limit (e.g. "request limit: 1 MiB")');
    const { refused, line } = await oversized(ctx, standard, limit.bytes + 1_024);
    const said = `README.md: "${limit.words}" (${limit.bytes} bytes)`;
    return refused ? pass(said, line) : fail(said, line, 'a request over the documented limit was taken');
  },
  'errors.limits': async (ctx, standard) => {
    const limit = documentedLimit(ctx);
    const { refused, line } = await oversized(ctx, standard, limit ? limit.bytes + 1_024 : UNDOCUMENTED_PROBE_BYTES);
    if (!refused) return fail(line, 'no payload limit');
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    if (!readme) return passInPart('that a timeout and a rate limit are enforced, and documented', line);
    const missing = [
      ...(limit ? [] : ['a request size limit']),
      ...(documentsTimeout(readme) ? [] : ['a timeout']),
      ...(/rate limit|per minute|per second|calls per/i.test(readme) ? [] : ['a rate limit']),
    ];
    if (missing.length) return fail(line, `README.md documents no ${missing.join(', ')}`);
    return passInPart(
      'that the timeout and the rate limit are enforced as documented',
      line,
      'README.md documents a size limit, a timeout and a rate limit',
    );
  },
  'auth.discovery': async (ctx) => {
    const path = ctx.probe.endpoint.pathname;
    const metadata = await ctx.probe.get(`/.well-known/oauth-protected-resource${path === '/' ? '' : path}`);
    const servers = metadata.body?.authorization_servers;
    const line = evidence(metadata, Array.isArray(servers) ? { authorization_servers: servers } : metadata.status);
    if (metadata.status === 200 && Array.isArray(servers) && servers.length) return pass(line);
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    if (readme && /internal[- ]only/i.test(readme))
      return passInPart('that the server is indeed internal-only', line, 'README.md marks the server internal-only');
    return fail(
      line,
      ctx.dir
        ? 'and README.md does not mark the server internal-only'
        : 'and no --dir to read an internal-only mark in',
    );
  },
  'auth.no-passthrough': async (ctx) => {
    const outside = 'whether the caller’s token is passed on to other services cannot be seen from outside';
    if (!ctx.dir) return manual(`${outside}: pass --dir <the server’s folder> to read its sources`);
    const scan = scanOutboundHttp(ctx.dir);
    if (scan.files === 0)
      return manual(`${outside}, and ${ctx.dir} has no sources to read: the reviewer reads the code`);
    const read = `${counted(scan.files, 'source file')} read`;
    if (scan.clients.length) {
      return manual(
        `${read}: requests made outside a downstream client, which the reviewer reads for the caller’s token:`,
        ...scan.clients.slice(0, 10),
        ...(scan.clients.length > 10 ? [`and ${scan.clients.length - 10} more`] : []),
      );
    }
    return pass(
      `${read}: no HTTP client outside downstream clients (which refuse to send the caller’s token)`,
      scan.downstreams.length
        ? `downstream clients: ${scan.downstreams.join(', ')}`
        : 'no downstream client declared: the server calls no other service',
    );
  },
};

import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { JsonRpcId } from '../../wire/json-rpc';
import { MetaKey } from '../../wire/meta-keys';
import { MethodResult } from '../handlers/handler-context';

/** Results a client may cache (2026-07-28 caching): they carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/**
 * What every 2026-07-28 result carries beside its own fields: `resultType`, the server's identity in
 * `_meta["io.modelcontextprotocol/serverInfo"]`, and on cacheable results the caching hints (corporate v2.0 §12.3,
 * docs/compliance.md#s12 defaults: `private`, one minute for catalogues). Built once; list pages already serialised are
 * spliced, not parsed.
 * @internal
 */
export class ModernEnvelope {
  private readonly serverInfo: Record<string, unknown>;
  private readonly rawPrefix = new Map<string, string>();

  constructor(private readonly options: ResolvedMcpOptions) {
    this.serverInfo = { name: options.name, version: options.version };
    if (options.title) this.serverInfo.title = options.title;
    if (options.description) this.serverInfo.description = options.description;
  }

  /** The serialised JSON-RPC response to `method` with id `id`. */
  serialise(id: JsonRpcId, method: string, result: MethodResult): string {
    if ('raw' in result && typeof result.raw === 'string' && Object.keys(result).length === 1) {
      let prefix = this.rawPrefix.get(method);
      if (prefix === undefined) {
        const head = JSON.stringify(this.fields(method, {}));
        this.rawPrefix.set(method, (prefix = head.slice(0, -1)));
      }
      // `{"resultType":…,"_meta":…}` + `,"tools":[…]}`: the page's own braces are reused.
      const rest = result.raw === '{}' ? '}' : `,${result.raw.slice(1)}`;
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${prefix}${rest}}`;
    }
    return JSON.stringify({ jsonrpc: '2.0', id, result: this.fields(method, result as Record<string, unknown>) });
  }

  private fields(method: string, result: Record<string, unknown>): Record<string, unknown> {
    const interim = result.resultType === 'input_required';
    const meta = { ...(result._meta as Record<string, unknown> | undefined), [MetaKey.serverInfo]: this.serverInfo };
    const out: Record<string, unknown> = {
      resultType: interim ? 'input_required' : 'complete',
      ...result,
      _meta: meta,
    };
    // Interim results are not cacheable and carry no hints.
    if (!interim && CACHEABLE.has(method)) {
      const { caching } = this.options;
      out.ttlMs = method === 'resources/read' ? caching.readTtlMs : caching.listTtlMs;
      out.cacheScope = caching.cacheScope;
    }
    return out;
  }
}

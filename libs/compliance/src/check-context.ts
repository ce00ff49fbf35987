import { StandardVersion, Verdict } from './compliance.types';
import { Exchange, HttpProbe } from './http-probe';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** What every check may ask of the server, each asked once and shared. */
export class CheckContext {
  private legacyAnswer?: Promise<{ init: Exchange; sessionId?: string }>;
  private discoverAnswer?: Promise<Exchange>;

  /** `dir`: the server's folder (README.md, CHANGELOG.md) for the documentation items, when given. */
  constructor(
    readonly probe: HttpProbe,
    readonly dir?: string,
  ) {}

  /** A 2025-11-25 session: `initialize` with the token, then `notifications/initialized`. */
  legacy(): Promise<{ init: Exchange; sessionId?: string }> {
    this.legacyAnswer ??= (async () => {
      const init = await this.probe.post(
        {
          jsonrpc: '2.0',
          id: 'compliance-init',
          method: 'initialize',
          params: {
            protocolVersion: LEGACY_VERSION,
            capabilities: {},
            clientInfo: { name: 'compliance', version: '1' },
          },
        },
        { headers: { 'mcp-protocol-version': LEGACY_VERSION } },
      );
      const sessionId = init.headers.get('mcp-session-id') ?? undefined;
      return { init, ...(sessionId ? { sessionId } : {}) };
    })();
    return this.legacyAnswer;
  }

  /** A request of the 2025 session (its id and version headers set). */
  async legacyPost(
    message: Record<string, unknown>,
    o: { token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Exchange> {
    const { sessionId } = await this.legacy();
    const headers = {
      'mcp-protocol-version': LEGACY_VERSION,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      ...o.headers,
    };
    return this.probe.post({ jsonrpc: '2.0', ...message }, { ...o, headers });
  }

  /** A 2026-07-28 request: the revision in `_meta` and in the headers. */
  modernPost(
    method: string,
    params: Record<string, unknown> = {},
    version = MODERN_VERSION,
    headers: Record<string, string> = {},
  ): Promise<Exchange> {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'compliance', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return this.probe.post(
      { jsonrpc: '2.0', id: `compliance-${method}`, method, params: { ...params, _meta: meta } },
      { headers: { 'mcp-protocol-version': version, 'mcp-method': method, ...headers } },
    );
  }

  /** `server/discover` of 2026-07-28. */
  discover(): Promise<Exchange> {
    this.discoverAnswer ??= this.modernPost('server/discover');
    return this.discoverAnswer;
  }
}

/** A check of one item; `standard` says which checklist asks (some items differ a little between the two). */
export type Check = (ctx: CheckContext, standard: StandardVersion) => Promise<Verdict>;

export const pass = (...evidence: string[]): Verdict => ({ status: 'pass', evidence });
export const fail = (...evidence: string[]): Verdict => ({ status: 'fail', evidence });
export const manual = (...evidence: string[]): Verdict => ({ status: 'manual', evidence });
export const notApplicable = (...evidence: string[]): Verdict => ({ status: 'not_applicable', evidence });

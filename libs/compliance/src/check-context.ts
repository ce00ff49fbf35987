import { StandardVersion, Verdict } from './compliance.types';
import { Exchange, HttpProbe } from './http-probe';
import { TokenMint } from './auth/token-mint';
import { StdioAnswer } from './stdio-probe';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** How a 2026-07-28 request departs from the usual one. */
export interface ModernOptions {
  version?: string;
  headers?: Record<string, string>;
  /** More `_meta` entries (a `traceparent`, say). */
  meta?: Record<string, unknown>;
  token?: string | null;
}

/** What a run was given beside the endpoint. */
export interface CheckOptions {
  dir?: string;
  mint?: TokenMint;
  /** What the server has logged so far, when the command started it (its stdout and stderr). */
  logs?: () => string;
  /** The official conformance suite the repository pins, when installed. */
  suite?: { cli: string; version: string };
  /** Items not to check: reported as manual. */
  skip?: string[];
  /** The server started again over stdio, when the command started it. */
  stdio?: () => Promise<StdioAnswer>;
}

/** What every check may ask of the server, each asked once and shared. */
export class CheckContext {
  private legacyAnswer?: Promise<{ init: Exchange; sessionId?: string }>;
  private discoverAnswer?: Promise<Exchange>;
  private readonly asked = new Map<string, Promise<unknown>>();

  /** The server's folder (README.md, CHANGELOG.md, mcp-contract.json) for the documentation items, when given. */
  readonly dir?: string;
  /** The issuer's key, when given: the negative token checks mint with it. */
  readonly mint?: TokenMint;
  /** The server's log so far, when the command started it. */
  readonly logs?: () => string;
  /** The server over stdio, when the command started it. */
  readonly stdio?: () => Promise<StdioAnswer>;
  /** The pinned conformance suite, when installed. */
  readonly suite?: { cli: string; version: string };

  constructor(
    readonly probe: HttpProbe,
    options: CheckOptions = {},
  ) {
    this.dir = options.dir;
    this.mint = options.mint;
    this.logs = options.logs;
    this.suite = options.suite;
    this.stdio = options.stdio;
  }

  /** A 2025-11-25 session: `initialize` with the token (`notifications/initialized` is life.initialized's to send). */
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

  /**
   * A 2026-07-28 request: the revision in `_meta` and in the headers (`version` another revision, `headers` more or
   * other headers, `token: null` none).
   */
  modernPost(method: string, params: Record<string, unknown> = {}, o: ModernOptions = {}): Promise<Exchange> {
    const version = o.version ?? MODERN_VERSION;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'compliance', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return this.probe.post(
      { jsonrpc: '2.0', id: `compliance-${method}`, method, params: { ...params, _meta: { ...meta, ...o.meta } } },
      {
        ...(o.token !== undefined ? { token: o.token } : {}),
        headers: { 'mcp-protocol-version': version, 'mcp-method': method, ...o.headers },
      },
    );
  }

  /**
   * A request in the era of a checklist: in the 2025 session for v1.2, as a 2026-07-28 request for v2.0 (with its
   * `Mcp-Name` header when `name` is given).
   */
  request(
    standard: StandardVersion,
    method: string,
    params: Record<string, unknown> = {},
    name?: string,
  ): Promise<Exchange> {
    if (standard === '1.2') return this.legacyPost({ id: `compliance-${method}`, method, params });
    return this.modernPost(method, params, name === undefined ? {} : { headers: { 'mcp-name': name } });
  }

  /** What the server declares in the checklist's era: `initialize`'s capabilities, or `server/discover`'s. */
  async capabilities(standard: StandardVersion): Promise<Record<string, Record<string, unknown> | undefined>> {
    const answer = standard === '1.2' ? (await this.legacy()).init : await this.discover();
    return (answer.body?.result?.capabilities as Record<string, Record<string, unknown>> | undefined) ?? {};
  }

  /** What `ask` answers, asked once per run under `key` (the tool list of an era, say) and shared by the checks. */
  once<T>(key: string, ask: () => Promise<T>): Promise<T> {
    if (!this.asked.has(key)) this.asked.set(key, ask());
    return this.asked.get(key) as Promise<T>;
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
/** A pass of the part a machine can check; `reviewer` says what a person must still judge. */
export const passInPart = (reviewer: string, ...evidence: string[]): Verdict => ({
  status: 'pass',
  evidence,
  reviewer,
});
/** A pass seen only on a negative probe; `unseen` says what a working call would have shown. */
export const passOnNegativeProbe = (unseen: string, ...evidence: string[]): Verdict => ({
  status: 'pass',
  evidence,
  negativeOnly: unseen,
});
export const fail = (...evidence: string[]): Verdict => ({ status: 'fail', evidence });
export const manual = (...evidence: string[]): Verdict => ({ status: 'manual', evidence });
export const notApplicable = (...evidence: string[]): Verdict => ({ status: 'not_applicable', evidence });

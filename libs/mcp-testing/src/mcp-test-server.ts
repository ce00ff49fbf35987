import { INestApplication, Type } from '@nestjs/common';
import { McpHttpAdapter, McpRegistry, createMcpHttpApp } from '@app/mcp';
import { McpTestClient, McpTestClientOptions } from './mcp-test-client';
import { McpTestIssuer, McpTestTokenOptions } from './mcp-test-issuer';

/** Options of {@link startMcpTestServer}. */
export interface McpTestServerOptions {
  /** Extra environment while the app boots (the app reads its configuration from the environment). */
  env?: Record<string, string>;
  /** `issuer` (default): a fresh {@link McpTestIssuer} the app trusts; `none`: authentication off. */
  auth?: 'issuer' | 'none';
  /** The HTTP adapter, as the app's `main.ts` gives it to `bootstrapMcpServer` (else `MCP_HTTP_ADAPTER`). */
  adapter?: McpHttpAdapter;
}

/** A running app under test: see {@link startMcpTestServer}. */
export interface McpTestServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly app: INestApplication;
  /** The issuer the app trusts (absent with `auth: 'none'`). */
  readonly issuer?: McpTestIssuer;
  /** A token from {@link issuer}; the default scope is every scope the app's providers declare. */
  token(options?: McpTestTokenOptions): Promise<string>;
  /** A connected {@link McpTestClient} with a fresh token (or the given one). */
  connect(options?: McpTestClientOptions): Promise<McpTestClient>;
  /** Closes every client it connected, the app and the issuer. */
  close(): Promise<void>;
}

/**
 * Boots `module` as the production `main.ts` would (`createMcpHttpApp`: on Express or Fastify as `options.adapter` or
 * `MCP_HTTP_ADAPTER` says, the MCP transport, guards, interceptors, limits, logs off) on an ephemeral 127.0.0.1 port,
 * trusting a fresh local JWKS issuer. Apps are configured from the environment, so the issuer's `MCP_JWKS_URI` /
 * `MCP_JWT_ISSUER` / `MCP_JWT_AUDIENCE`, `NODE_ENV=test`, `LOG_LEVEL=silent` and `MCP_AUDIT_LOG=/dev/null` (unless
 * set), `MCP_METRICS_PORT=0` and `options.env` are set in `process.env` while the app boots, and the previous values
 * are put back afterwards.
 *
 * @example
 * const server = await startMcpTestServer(AppModule);
 * const client = await server.connect({ scope: 'orders:read' });
 * const result = await client.callTool('get_order', { id: 'A-1' });
 * await server.close();
 */
export async function startMcpTestServer(
  module: Type<unknown>,
  options: McpTestServerOptions = {},
): Promise<McpTestServer> {
  const issuer = options.auth === 'none' ? undefined : await McpTestIssuer.start();
  const env: Record<string, string> = {
    NODE_ENV: process.env.NODE_ENV || 'test',
    MCP_METRICS_PORT: '0',
    // A test's output is its result: the app's JSON log lines only when the test asks for them.
    LOG_LEVEL: process.env.LOG_LEVEL || 'silent',
    MCP_AUDIT_LOG: process.env.MCP_AUDIT_LOG || '/dev/null',
    // It listens on loopback whatever HOST the test's environment has (a disabled authentication serves loopback only).
    HOST: '127.0.0.1',
    ...(issuer ? issuer.env() : { MCP_AUTH_DISABLED: 'true' }),
    ...options.env,
  };
  let app: INestApplication | undefined;
  try {
    app = await withEnv(env, async () => {
      const created = await createMcpHttpApp(module, { logger: false, adapter: options.adapter });
      await created.listen(0, '127.0.0.1');
      return created;
    });
  } catch (error) {
    await app?.close();
    await issuer?.close();
    throw error;
  }
  return new RunningTestServer(app, issuer);
}

class RunningTestServer implements McpTestServer {
  readonly url: string;
  private readonly clients: McpTestClient[] = [];

  constructor(
    readonly app: INestApplication,
    readonly issuer: McpTestIssuer | undefined,
  ) {
    const { port } = app.getHttpServer().address() as { port: number };
    this.url = `http://127.0.0.1:${port}/mcp`;
  }

  token(options: McpTestTokenOptions = {}): Promise<string> {
    if (!this.issuer) throw new Error('startMcpTestServer: no issuer (auth: "none"), so there are no tokens');
    const scope = options.scope ?? this.app.get(McpRegistry, { strict: false }).declaredScopes().join(' ');
    return this.issuer.mint({ ...options, scope });
  }

  async connect(options: McpTestClientOptions = {}): Promise<McpTestClient> {
    const token =
      options.token === null
        ? undefined
        : (options.token ?? (this.issuer ? await this.token({ scope: options.scope, sub: options.sub }) : undefined));
    const client = await McpTestClient.connect(this.url, token, options);
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
    await this.app.close();
    await this.issuer?.close();
  }
}

/** Runs `fn` with `env` merged into `process.env`, then restores the previous values. */
async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

import { INestApplication, NestApplicationOptions, SetMetadata, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP platforms an MCP server serves on: Nest's Express adapter (the default) or its Fastify adapter. */
export type McpHttpAdapter = 'express' | 'fastify';
const ADAPTERS: readonly McpHttpAdapter[] = ['express', 'fastify'];

/** Nest's key for a route's Fastify `config` (what `@RouteConfig()` of `@nestjs/platform-fastify` sets). */
const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';
const READS_OWN_BODY = 'mcpReadsOwnBody';

/**
 * Marks a route whose handler reads the request body itself (the MCP transports): on Fastify, Fastify then never
 * judges its Content-Type (a malformed one got Fastify's own 415 before the auth guard ran); the handler answers it in
 * the platform's terms, as on Express. Nothing on Express.
 * @internal
 */
export const ReadsOwnBody = () => SetMetadata(FASTIFY_ROUTE_CONFIG, { [READS_OWN_BODY]: true });

/**
 * The adapter to serve on: the option when given, else `MCP_HTTP_ADAPTER`, else Express. Anything else stops the boot
 * with the values there are.
 * @internal
 */
export function resolveHttpAdapter(option?: McpHttpAdapter, env: NodeJS.ProcessEnv = process.env): McpHttpAdapter {
  const chosen = option ?? (env.MCP_HTTP_ADAPTER?.trim().toLowerCase() || 'express');
  if (!ADAPTERS.includes(chosen as McpHttpAdapter))
    throw new Error(`MCP_HTTP_ADAPTER must be express or fastify (got ${JSON.stringify(option ?? chosen)})`);
  return chosen as McpHttpAdapter;
}

/**
 * Creates the Nest application on `adapter`, with the body left unread on both: the MCP transports read and bound
 * request bodies themselves and answer bad JSON with JSON-RPC errors. On Fastify routes also match as on Express
 * (case-insensitively, a trailing slash ignored). `@nestjs/platform-fastify` is loaded only here, only for Fastify:
 * an app served on Express does not need it installed.
 * @internal
 */
export async function createNestHttpApp(
  module: Type<unknown>,
  adapter: McpHttpAdapter,
  options: NestApplicationOptions,
): Promise<INestApplication> {
  if (adapter === 'fastify') return NestFactory.create(module, fastifyAdapter(), { ...options, bodyParser: false });
  const app = await NestFactory.create(module, { ...options, bodyParser: false });
  // Express announces itself on every answer, even those no middleware sees (`OPTIONS *`): nothing outside needs to
  // know the framework.
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
  return app;
}

function fastifyAdapter(): FastifyAdapter {
  let platform: typeof import('@nestjs/platform-fastify');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    platform = require('@nestjs/platform-fastify');
  } catch {
    throw new Error(
      'MCP_HTTP_ADAPTER=fastify needs @nestjs/platform-fastify: npm install --save-exact @nestjs/platform-fastify@12',
    );
  }
  const adapter = new platform.FastifyAdapter({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } });
  const fastify = adapter.getInstance();
  // Fastify parses JSON and text bodies by default, before any handler: every body is left to the handler instead
  // (the MCP transports read it from Node's request, within their own limits), as Express does with bodyParser off.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // On a route marked ReadsOwnBody, Fastify sees a neutral Content-Type (its own copy of the headers only: the handler
  // reads Node's request, where the client's header is unchanged).
  fastify.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[READS_OWN_BODY] && request.raw.headers['content-type'] !== undefined)
      request.headers = { 'content-type': 'application/octet-stream' };
    done();
  });
  return adapter;
}

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
  // A route marked ReadsOwnBody gets two hooks of its own (Fastify's onRoute, so no other route pays a check): while
  // Fastify decides how to parse, it sees a request without a body, so it neither judges the Content-Type nor runs a
  // parser; before the guards and the handler, the client's headers are back as they came.
  fastify.addHook('onRoute', (route) => {
    if (!(route.config as Record<string, unknown> | undefined)?.[READS_OWN_BODY]) return;
    const options = route as unknown as Record<'onRequest' | 'preValidation', unknown>;
    options.onRequest = [...hooks(options.onRequest), hideBody];
    options.preValidation = [...hooks(options.preValidation), showHeaders];
  });
  return adapter;
}

/** A Fastify request hook, as far as these need one: its request keeps an overlay of its headers (`headers =`). */
type FastifyHook = (request: { headers: unknown }, reply: unknown, done: () => void) => void;
const hooks = (given: unknown): FastifyHook[] =>
  given === undefined ? [] : Array.isArray(given) ? (given as FastifyHook[]) : [given as FastifyHook];

/** What Fastify reads to decide on a body: none. Its own copy of the headers only (Node's request is unchanged). */
const NO_BODY = { 'content-type': undefined, 'content-length': '0', 'transfer-encoding': undefined };
const hideBody: FastifyHook = (request, _reply, done) => {
  request.headers = NO_BODY;
  done();
};
const showHeaders: FastifyHook = (request, _reply, done) => {
  request.headers = undefined;
  done();
};

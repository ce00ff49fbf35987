import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { PROTECTED_RESOURCE_PATH } from '../auth/resource-url';

/**
 * Every HTTP header the MCP endpoints read or write (corporate standard §11.2, docs/compliance.md#s11, `use://http-headers`, see
 * docs/compliance.md#s11).
 */
export const MCP_HTTP_HEADERS = [
  {
    name: 'Authorization',
    direction: 'request',
    required: true,
    description: 'Bearer <JWT>. Never in the query string; never forwarded downstream.',
  },
  { name: 'Content-Type', direction: 'request', required: true, description: 'application/json on POST.' },
  {
    name: 'Accept',
    direction: 'request',
    required: true,
    description: 'application/json, text/event-stream on POST; text/event-stream on GET.',
  },
  {
    name: 'Mcp-Session-Id',
    direction: 'both',
    required: false,
    description: 'Issued on initialize; sent on every later request. Not identity.',
  },
  {
    name: 'MCP-Protocol-Version',
    direction: 'request',
    required: false,
    description: 'The negotiated revision; an unsupported value gets 400.',
  },
  { name: 'Last-Event-ID', direction: 'request', required: false, description: 'Resumes an SSE stream (GET).' },
  {
    name: 'Origin',
    direction: 'request',
    required: false,
    description: 'Checked against the allow-list (403 otherwise).',
  },
  {
    name: 'Host',
    direction: 'request',
    required: true,
    description: 'Checked against the allow-list (DNS-rebinding protection).',
  },
  {
    name: 'WWW-Authenticate',
    direction: 'response',
    required: false,
    description: 'Bearer challenge on 401/403 with realm, resource_metadata, error and scope.',
  },
  {
    name: 'Access-Control-Allow-Origin',
    direction: 'response',
    required: false,
    description: 'Echoes an allowed Origin (never *), with Vary: Origin.',
  },
  {
    name: 'Access-Control-Expose-Headers',
    direction: 'response',
    required: false,
    description: 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, X-Request-Id.',
  },
] as const;

/**
 * Publishes `use://auth` and `use://http-headers`, generated from the configuration, so an agent
 * (or a reviewer) can learn how to call this server from the server itself.
 * @internal
 */
@Injectable()
export class UsageResources implements OnApplicationBootstrap {
  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.http && !this.options.legacySse) return;
    if (!this.registry.resources.has('use://auth')) {
      this.registry.addResource(
        {
          uri: 'use://auth',
          name: 'auth',
          title: 'How to authenticate',
          description: 'Authentication scheme, token profile, claims and scopes of this server.',
          mimeType: 'application/json',
        },
        () => JSON.stringify(this.describeAuth(), null, 2),
      );
    }
    if (!this.registry.resources.has('use://http-headers')) {
      this.registry.addResource(
        {
          uri: 'use://http-headers',
          name: 'http-headers',
          title: 'HTTP headers',
          description: 'Every HTTP header this server reads or writes.',
          mimeType: 'application/json',
        },
        () => JSON.stringify({ endpoint: this.options.path, headers: MCP_HTTP_HEADERS }, null, 2),
      );
    }
  }

  private describeAuth(): Record<string, unknown> {
    const c = this.config;
    if (c.mode === 'disabled')
      return { scheme: 'none', note: 'Authentication is disabled (test fixture; refused in production).' };
    const scopes: Record<string, string[]> = {};
    for (const [kind, map] of [
      ['tool', this.registry.tools],
      ['prompt', this.registry.prompts],
      ['resource', this.registry.resources],
      ['resourceTemplate', this.registry.templates],
    ] as const) {
      for (const [key, entry] of map as ReadonlyMap<string, { requiredScopes?: readonly string[] }>) {
        for (const scope of entry.requiredScopes ?? []) (scopes[scope] ??= []).push(`${kind}:${key}`);
      }
    }
    return {
      scheme: 'Bearer',
      header: 'Authorization: Bearer <token>',
      tokenType: 'JWT',
      algorithms: c.algorithms,
      issuer: c.issuer,
      audience: c.audience,
      jwksUri: c.jwksUri,
      clockSkewSec: c.clockSkewSec,
      claims: {
        sub: 'caller identity; sessions are bound to it',
        scope: 'space-separated scopes (or scp as an array)',
        exp: 'required',
        nbf: 'checked when present',
        iss: c.issuer,
        aud: c.audience,
      },
      scopes,
      protectedResourceMetadata: PROTECTED_RESOURCE_PATH,
      authorizationServers: c.authorizationServers,
      development: c.dev ? 'local development issuer: npm run token -- --scope "..."' : undefined,
      tokenPassthrough: "never: this server does not forward the caller's token to any downstream service",
    };
  }
}

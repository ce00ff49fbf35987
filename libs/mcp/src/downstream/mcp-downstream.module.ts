import { DynamicModule, FactoryProvider, Logger, ModuleMetadata } from '@nestjs/common';
import { createCredentials } from './credentials/credentials.factory';
import { TOKEN_CREDENTIALS_DEPS, TOKEN_CREDENTIALS_DEPS_PROVIDER } from './credentials/token-credentials.provider';
import { TokenCredentialsDeps } from './credentials/token-credentials.deps';
import { McpDownstreamOptions } from './downstream-options.interface';
import { resolveDownstreamOptions } from './downstream-options.resolver';
import { DownstreamNames, DownstreamNamesModule } from './downstream-names';
import { downstreamToken } from './downstream.constants';
import { McpDownstreamClient } from './mcp-downstream.client';

/** `McpDownstreamModule.registerAsync`'s options: the name is known at once, the rest comes from a factory. */
export interface McpDownstreamAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  name: string;
  /** Providers the factory takes (`ConfigService`, say). */
  inject?: FactoryProvider['inject'];
  useFactory: (...args: never[]) => Omit<McpDownstreamOptions, 'name'> | Promise<Omit<McpDownstreamOptions, 'name'>>;
}

/**
 * One downstream service and its injectable client (`@InjectDownstream(name)`); import it once per downstream, in
 * the module whose tools call it. Options are checked when the app boots: a bad one stops it with every problem
 * listed.
 *
 * @example
 * \@Module({
 *   imports: [
 *     McpDownstreamModule.register({
 *       name: 'jira',
 *       baseUrl: 'https://jira.example.com/rest/api/2/',
 *       credentials: { type: 'static', header: 'X-Api-Key', value: process.env.JIRA_API_KEY! },
 *     }),
 *   ],
 *   providers: [JiraTools],
 * })
 * export class JiraModule {}
 */
export class McpDownstreamModule {
  /** A downstream whose options are known when the module is declared. */
  static register(options: McpDownstreamOptions): DynamicModule {
    const resolved = resolveDownstreamOptions(options);
    return McpDownstreamModule.declare(resolved.name, [], {
      provide: downstreamToken(resolved.name),
      inject: [DownstreamNames, TOKEN_CREDENTIALS_DEPS],
      useFactory: (names: DownstreamNames, deps: TokenCredentialsDeps) =>
        McpDownstreamModule.client(names, deps, options),
    });
  }

  /** A downstream whose options come from other providers (configuration read at boot). */
  static registerAsync(options: McpDownstreamAsyncOptions): DynamicModule {
    return McpDownstreamModule.declare(options.name, options.imports ?? [], {
      provide: downstreamToken(options.name),
      inject: [DownstreamNames, TOKEN_CREDENTIALS_DEPS, ...(options.inject ?? [])],
      useFactory: async (names: DownstreamNames, tokens: TokenCredentialsDeps, ...deps: never[]) =>
        McpDownstreamModule.client(names, tokens, { ...(await options.useFactory(...deps)), name: options.name }),
    });
  }

  private static declare(name: string, imports: ModuleMetadata['imports'], provider: FactoryProvider): DynamicModule {
    return {
      module: McpDownstreamModule,
      imports: [DownstreamNamesModule, ...(imports ?? [])],
      // The token cache's Redis, key prefix and key store, from McpModule when the app has it (Redis-shared tokens).
      providers: [TOKEN_CREDENTIALS_DEPS_PROVIDER, provider],
      exports: [downstreamToken(name)],
    };
  }

  private static client(
    names: DownstreamNames,
    tokens: TokenCredentialsDeps,
    options: McpDownstreamOptions,
  ): McpDownstreamClient {
    const resolved = resolveDownstreamOptions(options);
    names.claim(resolved.name);
    const credentials = resolved.credentials
      ? createCredentials(resolved.name, resolved.credentials, { ...tokens, logger: new Logger('McpDownstream') })
      : undefined;
    return new McpDownstreamClient(resolved, credentials);
  }
}

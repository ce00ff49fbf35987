import { DynamicModule, FactoryProvider, Logger, ModuleMetadata, Provider } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { createCredentials } from './credentials/credentials.factory';
import { TOKEN_CREDENTIALS_DEPS, TOKEN_CREDENTIALS_DEPS_PROVIDER } from './credentials/token-credentials.provider';
import { TokenCredentialsDeps } from './credentials/token-credentials.deps';
import { McpDownstreamOptions, McpDownstreamReadinessOptions } from './downstream-options.interface';
import { DOWNSTREAM_REGISTRY, DOWNSTREAM_REGISTRY_PROVIDER } from './downstream-metrics.provider';
import { DownstreamMeter } from './downstream.metrics';
import { downstreamReadinessCheck } from './downstream-readiness.check';
import { resolveDownstreamOptions } from './downstream-options.resolver';
import { DownstreamNames, DownstreamNamesModule } from './downstream-names';
import { downstreamToken } from './downstream.constants';
import { McpDownstreamClient } from './mcp-downstream.client';

/** `McpDownstreamModule.registerAsync`'s options: the name is known at once, the rest comes from a factory. */
export interface McpDownstreamAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  name: string;
  /** The `/ready` check, given here and not by the factory: the app's checks are known when modules are declared. */
  readiness?: boolean | McpDownstreamReadinessOptions;
  /** Providers the factory takes (`ConfigService`, say). */
  inject?: FactoryProvider['inject'];
  useFactory: (...args: never[]) => FactoryOptions | Promise<FactoryOptions>;
}

type FactoryOptions = Omit<McpDownstreamOptions, 'name' | 'readiness'>;
type Shared = { registry: Registry | undefined };

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
    return McpDownstreamModule.declare(resolved.name, [], !!resolved.readiness, {
      provide: downstreamToken(resolved.name),
      inject: [DownstreamNames, TOKEN_CREDENTIALS_DEPS, DOWNSTREAM_REGISTRY],
      useFactory: (names: DownstreamNames, deps: TokenCredentialsDeps, shared: Shared) =>
        McpDownstreamModule.client(names, deps, shared, options),
    });
  }

  /** A downstream whose options come from other providers (configuration read at boot). */
  static registerAsync(options: McpDownstreamAsyncOptions): DynamicModule {
    const { name, readiness } = options;
    const ready = readiness !== undefined && readiness !== false;
    // The check's name comes from the downstream's: refused here, with the option named, before it is declared.
    if (ready) resolveDownstreamOptions({ name, baseUrl: 'https://downstream.invalid/', readiness: true });
    return McpDownstreamModule.declare(name, options.imports ?? [], ready, {
      provide: downstreamToken(name),
      inject: [DownstreamNames, TOKEN_CREDENTIALS_DEPS, DOWNSTREAM_REGISTRY, ...(options.inject ?? [])],
      useFactory: async (names: DownstreamNames, tokens: TokenCredentialsDeps, shared: Shared, ...deps: never[]) => {
        const made = (await options.useFactory(...deps)) as McpDownstreamOptions;
        if (made && 'readiness' in made)
          throw new Error(
            `McpDownstreamModule "${name}": give readiness beside name in registerAsync, not from the factory`,
          );
        return McpDownstreamModule.client(names, tokens, shared, { ...made, name, readiness });
      },
    });
  }

  private static declare(
    name: string,
    imports: ModuleMetadata['imports'],
    readiness: boolean,
    provider: FactoryProvider,
  ): DynamicModule {
    // The token cache's Redis, key prefix and key store, and the metrics registry, from McpModule when the app has it.
    const providers: Provider[] = [TOKEN_CREDENTIALS_DEPS_PROVIDER, DOWNSTREAM_REGISTRY_PROVIDER, provider];
    if (readiness) providers.push(downstreamReadinessCheck(name));
    return {
      module: McpDownstreamModule,
      imports: [DownstreamNamesModule, ...(imports ?? [])],
      providers,
      exports: [downstreamToken(name)],
    };
  }

  private static client(
    names: DownstreamNames,
    tokens: TokenCredentialsDeps,
    shared: Shared,
    options: McpDownstreamOptions,
  ): McpDownstreamClient {
    const resolved = resolveDownstreamOptions(options);
    names.claim(resolved.name);
    const meter = new DownstreamMeter(resolved.name, shared.registry);
    const credentials = resolved.credentials
      ? createCredentials(resolved.name, resolved.credentials, {
          ...tokens,
          logger: new Logger('McpDownstream'),
          onAcquisition: meter.tokenAcquired,
        })
      : undefined;
    return new McpDownstreamClient(resolved, credentials, meter);
  }
}

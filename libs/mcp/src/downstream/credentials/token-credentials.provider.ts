import { FactoryProvider, Logger } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import type { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { MCP_KEY_STORE, McpKeyStore } from '../../stores/key.store';
import { RedisConnection } from '../../stores/redis.connection';
import { TokenCredentialsDeps } from './token-credentials.deps';

/** Injection token of the {@link TokenCredentialsDeps} the downstream module builds its credentials with. */
export const TOKEN_CREDENTIALS_DEPS = Symbol('TOKEN_CREDENTIALS_DEPS');

/**
 * The token credentials' dependencies from McpModule (global): its Redis connection when `store: 'redis'`
 * (`MCP_STORE=redis`; absent otherwise, and tokens stay in the process), its key prefix, and the key store whose
 * shared key seals the tokens kept in Redis.
 * @internal
 */
export const TOKEN_CREDENTIALS_DEPS_PROVIDER: FactoryProvider<TokenCredentialsDeps> = {
  provide: TOKEN_CREDENTIALS_DEPS,
  // Optional: a downstream module tested without McpModule keeps its tokens in the process.
  inject: [
    { token: MCP_MODULE_OPTIONS, optional: true },
    { token: MCP_KEY_STORE, optional: true },
    { token: RedisConnection, optional: true },
  ],
  useFactory: (options?: ResolvedMcpOptions, keyStore?: McpKeyStore, redis?: RedisConnection) => ({
    redis: redis?.client,
    keyPrefix: options?.redis.keyPrefix,
    keyStore,
    logger: new Logger('McpDownstream'),
  }),
};

import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule } from '../../mcp.module';
import { RedisConnection } from '../../stores/redis.connection';
import { TokenCredentialsDeps } from './token-credentials.deps';
import { TOKEN_CREDENTIALS_DEPS, TOKEN_CREDENTIALS_DEPS_PROVIDER } from './token-credentials.provider';

// A feature module of its own, as the downstream module is: it sees McpModule's exports only.
@Module({ providers: [TOKEN_CREDENTIALS_DEPS_PROVIDER], exports: [TOKEN_CREDENTIALS_DEPS] })
class DownstreamLikeModule {}

describe('TOKEN_CREDENTIALS_DEPS_PROVIDER', () => {
  it('in memory: no Redis, the key store and a logger', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'orders', http: false }), DownstreamLikeModule],
    }).compile();
    const deps = moduleRef.get<TokenCredentialsDeps>(TOKEN_CREDENTIALS_DEPS);
    expect(deps.redis).toBeUndefined();
    expect(deps.keyStore).toBeDefined();
    expect(deps.logger).toBeDefined();
    await moduleRef.close();
  });

  it("with store: 'redis': McpModule's own connection and key prefix", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'orders',
          http: false,
          store: 'redis',
          redis: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: 'test:deps:' },
        }),
        DownstreamLikeModule,
      ],
    }).compile();
    const deps = moduleRef.get<TokenCredentialsDeps>(TOKEN_CREDENTIALS_DEPS);
    expect(deps.redis).toBe(moduleRef.get(RedisConnection).client);
    expect(deps.keyPrefix).toBe('test:deps:');
    await moduleRef.close();
  });
});

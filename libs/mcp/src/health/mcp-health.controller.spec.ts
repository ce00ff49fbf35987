import { Injectable, INestApplication, Module, Scope } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { HealthIndicatorResult, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { createServer, Server } from 'node:http';
import request from 'supertest';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpModuleOptions } from '../options/mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpScopesGuard } from '../pipeline/mcp-scopes.guard';
import { McpRegistry } from '../registry/mcp.registry';
import { McpSessionManager } from '../sessions/mcp-session.manager';
import { MCP_SESSION_STORE } from '../stores/session.store';
import { InMemorySessionStore } from '../stores/in-memory-session.store';
import { MCP_EVENT_STORE } from '../stores/event.store';
import { InMemoryEventStore } from '../stores/in-memory-event.store';
import { MCP_LIMIT_STORE } from '../stores/limit.store';
import { MCP_TASK_STORE } from '../stores/task.store';
import { InMemoryTaskStore } from '../stores/in-memory-task.store';
import { MCP_TASK_QUEUE } from '../tasks/task.queue';
import { InProcessTaskQueue } from '../tasks/in-process-task.queue';
import { InMemoryLimitStore } from '../stores/in-memory-limit.store';
import { HEALTH_CONTROLLERS, HEALTH_PROVIDERS } from './health.providers';
import { McpReadinessCheck } from './mcp-readiness-check.decorator';
import { McpReadinessIndicator } from './mcp-readiness-indicator.interface';

/** A team dependency the tests switch: up, down (with a secret-looking message), slow. */
const db = { state: 'up' as 'up' | 'down' | 'slow' | 'degraded', calls: 0 };

@McpReadinessCheck('db')
@Injectable()
class DbIndicator implements McpReadinessIndicator {
  constructor(private readonly health: HealthIndicatorService) {}
  async isHealthy(key: string, signal: AbortSignal): Promise<HealthIndicatorResult> {
    db.calls++;
    const check = this.health.check(key);
    if (db.state === 'slow')
      await new Promise((r, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    if (db.state === 'down')
      return check.down({ message: 'connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432/app' });
    return db.state === 'degraded' ? check.degraded() : check.up();
  }
}
@Module({ imports: [TerminusModule], providers: [DbIndicator] })
class DbModule {}

/** A real JWKS endpoint on loopback. */
async function jwksServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[{"kty":"RSA","kid":"k1"}]}'),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json` };
}

const JWT_AUTH: ResolvedAuthConfig = {
  mode: 'jwt',
  jwks: true,
  jwksUri: '',
  issuer: 'https://id.example',
  audience: 'shop',
  algorithms: ['RS256'],
  clockSkewSec: 30,
  jwksCacheTtlMs: 60_000,
  jwksRefetchIntervalMs: 10_000,
  authorizationServers: ['https://id.example'],
  anonymousListing: false,
};
let jwks: { url: string; server: Server };
let app: INestApplication | undefined;

/**
 * What McpModule gives the health folder (options, auth config, stores, sessions, discovery), and the global scope
 * guard.
 */
async function boot(
  options: Partial<McpModuleOptions> = {},
  imports: unknown[] = [DbModule],
  store?: object,
): Promise<INestApplication> {
  const resolved = resolveMcpOptions({
    name: 'shop',
    version: '4.5.6',
    metrics: false,
    health: { cacheMs: 0, probeTimeoutMs: 300 },
    ...options,
  });
  const auth: ResolvedAuthConfig = options.auth?.disabled
    ? { ...JWT_AUTH, mode: 'disabled', jwks: false, jwksUri: '' }
    : { ...JWT_AUTH, jwksUri: jwks.url };
  const ref = await Test.createTestingModule({
    imports: [DiscoveryModule, ...(imports as [])],
    controllers: HEALTH_CONTROLLERS,
    providers: [
      { provide: MCP_MODULE_OPTIONS, useValue: resolved },
      { provide: MCP_AUTH_CONFIG, useValue: auth },
      { provide: MCP_SESSION_STORE, useValue: store ?? new InMemorySessionStore() },
      { provide: MCP_EVENT_STORE, useValue: new InMemoryEventStore() },
      { provide: MCP_LIMIT_STORE, useValue: new InMemoryLimitStore() },
      { provide: MCP_TASK_STORE, useValue: new InMemoryTaskStore() },
      { provide: MCP_TASK_QUEUE, useValue: new InProcessTaskQueue() },
      { provide: APP_GUARD, useClass: McpScopesGuard },
      McpRegistry,
      McpSessionManager,
      ...HEALTH_PROVIDERS,
    ],
  }).compile();
  app = ref.createNestApplication({ bodyParser: false, logger: false });
  await app.init();
  return app;
}

beforeEach(async () => {
  Object.assign(db, { state: 'up', calls: 0 });
  jwks = await jwksServer();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await new Promise((ok) => jwks.server.close(ok));
});

describe('GET /health', () => {
  it('answers without a token: ok, the server version, whole seconds of uptime, no-store JSON', async () => {
    const res = await request((await boot()).getHttpServer())
      .get('/health')
      .expect(200);
    expect(res.body).toEqual({ status: 'ok', version: '4.5.6', uptime: expect.any(Number) });
    expect(Number.isInteger(res.body.uptime)).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('turns 503 "down" when the heap is above MCP_HEALTH_MAX_HEAP_MB', async () => {
    process.env.MCP_HEALTH_MAX_HEAP_MB = '1';
    try {
      const res = await request((await boot()).getHttpServer())
        .get('/health')
        .expect(503);
      expect(res.body).toEqual({ status: 'down', version: '4.5.6', uptime: expect.any(Number) });
    } finally {
      delete process.env.MCP_HEALTH_MAX_HEAP_MB;
    }
  });

  it('refuses a bad MCP_HEALTH_MAX_HEAP_MB at boot', async () => {
    process.env.MCP_HEALTH_MAX_HEAP_MB = 'lots';
    try {
      await expect(boot()).rejects.toThrow(/MCP_HEALTH_MAX_HEAP_MB must be a positive number/);
    } finally {
      delete process.env.MCP_HEALTH_MAX_HEAP_MB;
    }
  });
});

describe('GET /ready', () => {
  it('is 200 "ready" with every check ok: jwks, stores, the team check, shutdown', async () => {
    const res = await request((await boot()).getHttpServer())
      .get('/ready')
      .expect(200);
    expect(res.body).toEqual({
      status: 'ready',
      checks: { jwks: 'ok', session_store: 'ok', event_store: 'ok', limit_store: 'ok', db: 'ok', shutdown: 'ok' },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is 503 "not_ready" with statuses only when the JWKS and a team dependency are down', async () => {
    const server = (await boot()).getHttpServer();
    db.state = 'down';
    await new Promise((ok) => jwks.server.close(ok));
    const res = await request(server).get('/ready').expect(503);
    expect(res.body).toEqual({
      status: 'not_ready',
      checks: { jwks: 'down', session_store: 'ok', event_store: 'ok', limit_store: 'ok', db: 'down', shutdown: 'ok' },
    });
    expect(res.text).not.toMatch(/127\.0\.0\.1|hunter2|ECONNREFUSED|message|postgres/);
    jwks = await jwksServer(); // for afterEach
  });

  it('keeps a degraded team check ready', async () => {
    db.state = 'degraded';
    const res = await request((await boot()).getHttpServer())
      .get('/ready')
      .expect(200);
    expect(res.body.checks.db).toBe('degraded');
  });

  it('counts a probe slower than probeTimeoutMs as down', async () => {
    db.state = 'slow';
    const started = Date.now();
    const res = await request((await boot()).getHttpServer())
      .get('/ready')
      .expect(503);
    expect(res.body.checks).toMatchObject({ db: 'down', jwks: 'ok' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reuses probe answers for cacheMs', async () => {
    const server = (await boot({ health: { cacheMs: 60_000, probeTimeoutMs: 300 } })).getHttpServer();
    await Promise.all([request(server).get('/ready').expect(200), request(server).get('/ready').expect(200)]);
    db.state = 'down';
    await request(server).get('/ready').expect(200);
    expect(db.calls).toBe(1);
  });

  it('reports a store whose ping fails as down', async () => {
    const store = Object.assign(new InMemorySessionStore(), {
      ping: () => Promise.reject(new Error('redis://:pw@cache:6379 unreachable')),
    });
    const res = await request((await boot({}, [DbModule], store)).getHttpServer())
      .get('/ready')
      .expect(503);
    expect(res.body.checks.session_store).toBe('down');
    expect(res.text).not.toMatch(/redis|pw/);
  });

  it('is 503 "draining" once shutdown began, while /health stays 200', async () => {
    const nest = await boot();
    nest.get(McpSessionManager).draining = true;
    const res = await request(nest.getHttpServer()).get('/ready').expect(503);
    expect(res.body).toEqual({
      status: 'draining',
      checks: expect.objectContaining({ shutdown: 'draining', jwks: 'ok', db: 'ok' }),
    });
    await request(nest.getHttpServer()).get('/health').expect(200);
  });

  it('has no jwks check when auth is disabled, and no team checks when there are none', async () => {
    const res = await request((await boot({ auth: { disabled: true } }, [])).getHttpServer())
      .get('/ready')
      .expect(200);
    expect(res.body.checks).toEqual({ session_store: 'ok', event_store: 'ok', limit_store: 'ok', shutdown: 'ok' });
  });
});

describe('switched off and misdeclared', () => {
  it('answers 404 on both endpoints with health.enabled false', async () => {
    const server = (await boot({ health: { enabled: false } })).getHttpServer();
    await request(server).get('/health').expect(404);
    await request(server).get('/ready').expect(404);
  });

  it('stops the boot on a duplicate name, a class without isHealthy, and a request-scoped check', async () => {
    @McpReadinessCheck('db')
    @Injectable()
    class OtherDb {
      isHealthy = () => ({ db: { status: 'up' as const } });
    }
    await expect(boot({}, [DbModule, { module: class A {}, providers: [OtherDb] }])).rejects.toThrow(
      /@McpReadinessCheck\('db'\) on (OtherDb|DbIndicator): the name is already used by (DbIndicator|OtherDb)/,
    );
    @McpReadinessCheck('cache')
    @Injectable()
    class NotAnIndicator {}
    await expect(boot({}, [{ module: class B {}, providers: [NotAnIndicator] }])).rejects.toThrow(
      /NotAnIndicator: the class must implement McpReadinessIndicator/,
    );
    @McpReadinessCheck('queue')
    @Injectable({ scope: Scope.REQUEST })
    class Scoped {
      isHealthy = () => ({ queue: { status: 'up' as const } });
    }
    await expect(boot({}, [{ module: class C {}, providers: [Scoped] }])).rejects.toThrow(
      /Scoped: readiness checks must be singleton providers/,
    );
  });
});

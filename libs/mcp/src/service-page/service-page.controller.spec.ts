import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import { McpModuleOptions } from '../options/mcp-module-options.interface';
import { ServicePageController } from './service-page.controller';
import { SERVICE_PAGE_CSP, SERVICE_PAGE_SCRIPT_PATH, SERVICE_PAGE_STYLE_PATH } from './service-page.constants';

const AUTH: ResolvedAuthConfig = {
  mode: 'jwt',
  jwks: true,
  jwksUri: 'https://id.example/jwks',
  issuer: 'https://id.example',
  audience: 'shop',
  algorithms: ['RS256'],
  clockSkewSec: 30,
  jwksCacheTtlMs: 60_000,
  jwksRefetchIntervalMs: 10_000,
  authorizationServers: ['https://id.example'],
  anonymousListing: false,
};

/** The controller with the three things it reads: options, auth config and registry. */
async function boot(options: Partial<McpModuleOptions>): Promise<INestApplication> {
  const resolved = resolveMcpOptions({
    name: 'shop',
    version: '4.5.6',
    description: 'Orders & <refunds>.',
    metrics: false,
    ...options,
  });
  const ref = await Test.createTestingModule({
    controllers: [ServicePageController],
    providers: [
      { provide: MCP_MODULE_OPTIONS, useValue: resolved },
      { provide: MCP_AUTH_CONFIG, useValue: AUTH },
      McpRegistry,
    ],
  }).compile();
  const app = ref.createNestApplication({ bodyParser: false, logger: false });
  await app.init();
  return app;
}

describe('ServicePageController', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves the page with a strict CSP, nosniff and no-store', async () => {
    app = await boot({});
    const res = await request(app.getHttpServer()).get('/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(SERVICE_PAGE_CSP);
    expect(SERVICE_PAGE_CSP).toMatch(/script-src 'self'/);
    expect(SERVICE_PAGE_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('v4.5.6');
    expect(res.text).toContain('Orders &amp; &lt;refunds&gt;.');
    expect(res.text).toContain('use://auth');
    expect(res.text).toContain('https://id.example');
  });

  it('serves the console script and the style sheet with their own types', async () => {
    app = await boot({});
    const js = await request(app.getHttpServer()).get(SERVICE_PAGE_SCRIPT_PATH).expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.text).toContain("'notifications/initialized'");
    expect(js.text).not.toMatch(/localStorage|sessionStorage/);
    const css = await request(app.getHttpServer()).get(SERVICE_PAGE_STYLE_PATH).expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('shows resources added at run time', async () => {
    app = await boot({});
    await request(app.getHttpServer()).get('/').expect(200);
    app.get(McpRegistry).addResource({ uri: 'shop://reports/q3', name: 'q3', mimeType: 'text/csv' }, () => 'a,b');
    expect((await request(app.getHttpServer()).get('/').expect(200)).text).toContain('shop://reports/q3');
  });

  it('answers 404 everywhere when servicePage is off', async () => {
    app = await boot({ servicePage: false });
    for (const path of ['/', SERVICE_PAGE_SCRIPT_PATH, SERVICE_PAGE_STYLE_PATH]) {
      const res = await request(app.getHttpServer()).get(path).expect(404);
      expect(res.text).not.toContain('shop');
    }
  });

  it('answers 404 when MCP_SERVICE_PAGE=false', async () => {
    process.env.MCP_SERVICE_PAGE = 'false';
    try {
      app = await boot({});
    } finally {
      delete process.env.MCP_SERVICE_PAGE;
    }
    await request(app.getHttpServer()).get('/').expect(404);
  });
});

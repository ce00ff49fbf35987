import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { McpModuleOptions } from '../options/mcp-module-options.interface';
import { servicePageModel } from './service-page-model.factory';
import { SkillCatalog } from '../skills/skill-catalog';
import { addComputedSkills } from '../skills/computed-skills';

const JWT: ResolvedAuthConfig = {
  mode: 'jwt',
  jwks: true,
  jwksUri: 'https://id.example/jwks',
  issuer: 'https://id.example',
  audience: 'shop',
  algorithms: ['RS256', 'ES256'],
  clockSkewSec: 30,
  jwksCacheTtlMs: 60_000,
  jwksRefetchIntervalMs: 10_000,
  authorizationServers: ['https://id.example'],
  anonymousListing: false,
};
const registry = () => ({
  tools: new Map([
    [
      'refund',
      {
        name: 'refund',
        definition: {
          name: 'refund',
          description: 'Refunds.',
          annotations: { readOnlyHint: false, riskLevel: 'high' },
        },
        requiredScopes: ['orders:write'],
      },
    ],
  ]),
  prompts: new Map([
    [
      'summarise',
      {
        name: 'summarise',
        definition: { name: 'summarise', arguments: [{ name: 'orderId', required: true }] },
        requiredScopes: ['orders:read'],
      },
    ],
  ]),
  resources: new Map([
    [
      'shop://catalog',
      { uri: 'shop://catalog', definition: { uri: 'shop://catalog', name: 'catalog', mimeType: 'application/json' } },
    ],
  ]),
  templates: new Map([
    [
      'shop://orders/{id}',
      {
        uriTemplate: 'shop://orders/{id}',
        definition: { uriTemplate: 'shop://orders/{id}', name: 'order' },
        requiredScopes: ['orders:read'],
      },
    ],
  ]),
  skills: addComputedSkills(SkillCatalog.EMPTY, [
    {
      where: 'Skills.refund',
      path: 'billing/refund-order',
      files: { 'SKILL.md': '---\nname: refund-order\ndescription: Refund an order.\n---\n', 'notes.md': 'n' },
      scopes: ['refunds:write'],
    },
  ]).catalog,
});
const model = (o: Partial<McpModuleOptions> = {}, auth: ResolvedAuthConfig = JWT) =>
  servicePageModel(resolveMcpOptions({ name: 'shop', version: '1.0.0', ...o }), auth, registry() as never);

describe('servicePageModel', () => {
  it('collects the catalogue and every scope in use', () => {
    const m = model();
    expect(m.tools.map((t) => [t.name, t.risk])).toEqual([['refund', 'high']]);
    expect(m.prompts[0].arguments).toEqual([{ name: 'orderId', required: true, description: undefined }]);
    expect(m.resources[0].uri).toBe('shop://catalog');
    expect(m.templates[0].uri).toBe('shop://orders/{id}');
    expect(m.skills).toEqual([
      {
        uri: 'skill://billing/refund-order/SKILL.md',
        name: 'refund-order',
        description: 'Refund an order.',
        files: 2,
        scopes: ['refunds:write'],
      },
    ]);
    expect(m.auth.scopes).toEqual(['orders:read', 'orders:write', 'refunds:write']);
  });

  it('describes Bearer JWT, the development issuer hint and disabled auth, without secrets', () => {
    expect(model().auth).toMatchObject({
      scheme: 'Bearer JWT',
      details: expect.arrayContaining([
        ['Issuer', 'https://id.example'],
        ['Audience', 'shop'],
      ]),
    });
    expect(
      model(
        {},
        { ...JWT, dev: { mint: async () => '', keyFile: '/k', served: () => undefined, close: () => undefined } },
      ).auth.hint,
    ).toContain('npm run token');
    const hs = model({}, { ...JWT, jwks: false, jwksUri: '', hs256Secret: 's'.repeat(40) }).auth;
    expect(JSON.stringify(hs)).not.toContain('s'.repeat(40));
    expect(model({}, { ...JWT, mode: 'disabled' }).auth.scheme).toBe('none');
  });

  it('names every protocol revision served, by era: a dual-era server is not shown as 2025-11-25 alone', () => {
    expect(model().protocols).toEqual([
      { era: 'stateless', versions: ['2026-07-28'] },
      { era: 'sessions', versions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] },
    ]);
  });

  it('lists the endpoints the options switch on', () => {
    const paths = (o: Partial<McpModuleOptions>) => model(o).endpoints.map((e) => `${e.path} ${e.description}`);
    expect(paths({ path: '/rpc', metrics: { port: 9464 } })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/rpc MCP/),
        expect.stringMatching(/^\/health/),
        expect.stringMatching(/^\/ready/),
        expect.stringMatching(/^\/metrics .*port 9464/),
        expect.stringMatching(/^use:\/\/auth/),
      ]),
    );
    const off = paths({ metrics: false, health: { enabled: false } });
    expect(off.some((p) => /^\/(metrics|health|ready) /.test(p))).toBe(false);
    expect(paths({ metrics: { port: false, basicAuth: { username: 'u', password: 'p' } } })).toContain(
      '/metrics Prometheus metrics on this port, Basic auth',
    );
  });
});

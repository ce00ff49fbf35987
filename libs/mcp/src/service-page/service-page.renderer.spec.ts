import { renderServicePage } from './service-page.renderer';
import { ServicePageModel } from './service-page.model';
import { SERVICE_PAGE_SCRIPT_PATH, SERVICE_PAGE_STYLE_PATH } from './service-page.constants';

const EVIL = '<script>alert("x")</script>';

function model(over: Partial<ServicePageModel> = {}): ServicePageModel {
  return {
    name: 'shop',
    title: 'Shop',
    version: '1.2.3',
    description: 'Orders and refunds.',
    mcpPath: '/mcp',
    protocolVersion: '2025-11-25',
    protocols: [
      { era: 'stateless', versions: ['2026-07-28'] },
      { era: 'sessions', versions: ['2025-11-25', '2025-06-18'] },
    ],
    endpoints: [{ method: 'GET', path: '/health', description: 'liveness' }],
    auth: { scheme: 'Bearer JWT', details: [['Issuer', 'https://id.example']], scopes: ['orders:read'] },
    tools: [
      { name: 'find_orders', description: 'Finds orders.', risk: 'read-only', scopes: ['orders:read'], example: '{}' },
      {
        name: 'refund',
        description: 'Refunds.',
        risk: 'high',
        sideEffects: 'Moves money.',
        scopes: ['orders:write'],
        example: '{\n  "id": ""\n}',
      },
    ],
    prompts: [{ name: 'summarise', arguments: [{ name: 'orderId', required: true }], scopes: [] }],
    resources: [{ uri: 'shop://catalog', name: 'catalog', mimeType: 'application/json', scopes: [] }],
    templates: [{ uri: 'shop://orders/{id}', name: 'order', scopes: ['orders:read'] }],
    skills: [
      {
        uri: 'skill://billing/refund-order/SKILL.md',
        name: 'refund-order',
        description: 'Refund an order within policy.',
        files: 3,
        scopes: ['orders:write'],
      },
    ],
    ...over,
  };
}

describe('renderServicePage', () => {
  it('names the protocol revisions of both eras in the header', () => {
    expect(renderServicePage(model())).toContain(
      '<span id="service-protocols">protocols 2026-07-28 (stateless) · 2025-11-25, 2025-06-18 (sessions)</span>',
    );
  });

  it('shows name, version, description, endpoints, auth, tools with risk levels, prompts, resources and templates', () => {
    const page = renderServicePage(model());
    for (const text of [
      'Shop',
      'v1.2.3',
      'Orders and refunds.',
      '/health',
      'Bearer JWT',
      'https://id.example',
      'find_orders',
      'refund',
      'summarise',
      'shop://catalog',
      'shop://orders/{id}',
      'Moves money.',
    ]) {
      expect(page).toContain(text);
    }
    expect(page).toContain('<span class="risk risk-read-only" title="risk level">read-only</span>');
    expect(page).toContain('<span class="risk risk-high" title="risk level">high</span>');
    expect(page).toContain(
      '<option value="refund" data-example="{\n  &quot;id&quot;: &quot;&quot;\n}">refund (high)</option>',
    );
  });

  it('lists the skills like the resources: name, SKILL.md URI, description, file count, scopes', () => {
    const page = renderServicePage(model());
    expect(page).toContain('<a href="#skills">Skills</a>');
    expect(page).toContain('<h2>Skills <span class="count">1</span></h2>');
    expect(page).toContain(
      '<tr data-skill="refund-order"><td class="nowrap"><code>refund-order</code><div class="muted"><code>skill://billing/refund-order/SKILL.md</code></div></td><td>Refund an order within policy.</td><td class="nowrap">3 files</td><td class="nowrap"><code class="scope">orders:write</code> </td></tr>',
    );
    expect(renderServicePage(model({ skills: [] }))).toContain('<p class="muted">This server has no skills.</p>');
  });

  it('escapes every value that comes from options or the catalogue', () => {
    const page = renderServicePage(
      model({
        title: EVIL,
        description: EVIL,
        instructions: EVIL,
        auth: { scheme: 'Bearer JWT', details: [['Issuer', EVIL]], hint: EVIL, scopes: [EVIL] },
        tools: [
          {
            name: 'x',
            title: EVIL,
            description: EVIL,
            risk: 'low',
            sideEffects: EVIL,
            approval: EVIL,
            scopes: [EVIL],
            example: `{"a":"${EVIL}"}`,
          },
        ],
        prompts: [
          { name: 'p', description: EVIL, arguments: [{ name: EVIL, required: false, description: EVIL }], scopes: [] },
        ],
        resources: [{ uri: `shop://"${EVIL}`, name: EVIL, description: EVIL, mimeType: EVIL, scopes: [] }],
        skills: [{ uri: `skill://${EVIL}/SKILL.md`, name: EVIL, description: EVIL, files: 1, scopes: [EVIL] }],
      }),
    );
    expect(page).not.toContain('<script>alert');
    expect(page).not.toMatch(/="[^"]*"<script/);
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // The only script element is the external console script.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain(`<script src="${SERVICE_PAGE_SCRIPT_PATH}" defer></script>`);
    expect(page).toContain(`<link rel="stylesheet" href="${SERVICE_PAGE_STYLE_PATH}">`);
  });

  it('has no inline script, inline style or event handler attribute (the CSP would block them)', () => {
    const page = renderServicePage(model());
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('keeps the token field out of any form submission and says when there is nothing to call', () => {
    const page = renderServicePage(model());
    expect(page).toMatch(/<input id="console-token" class="secret" type="text" autocomplete="off"/);
    expect(page).not.toMatch(/<form|type="password"/);
    expect(page).not.toMatch(/<input[^>]*name=/);
    expect(renderServicePage(model({ tools: [] }))).toContain('There is no tool to call.');
  });
});

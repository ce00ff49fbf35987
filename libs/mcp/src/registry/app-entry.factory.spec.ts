import { buildAppEntry, staticHtml } from './app-entry.factory';
import { RegistryViolations } from './registry-rules';

const source = { className: 'V', methodName: 'm' };
const handler = async () => '<html></html>';

describe('MCP Apps entries and rules', () => {
  it('builds a view: fixed mimeType, _meta.ui only from what is declared', () => {
    const v = new RegistryViolations();
    const bare = buildAppEntry({ uri: 'ui://a', name: 'a' }, source, handler, v)!;
    expect(bare.definition).toEqual({ uri: 'ui://a', name: 'a', mimeType: 'text/html;profile=mcp-app' });
    expect(bare.ui).toEqual({});
    const full = buildAppEntry(
      { uri: 'ui://b', name: 'b', permissions: { camera: {} }, domain: 'x.example', _meta: { k: 1 } },
      source,
      handler,
      v,
    )!;
    expect(full.definition._meta).toEqual({ k: 1, ui: { permissions: { camera: {} }, domain: 'x.example' } });
    expect(() => v.throwIfAny()).not.toThrow();
  });

  it('refuses a view without a ui:// URI or a name, or whose csp does not cover its HTML (app-csp.rules)', () => {
    const v = new RegistryViolations();
    expect(buildAppEntry({ uri: 'https://x', name: ' ' }, source, handler, v)).toBeUndefined();
    const html = '<img src="http://img.example/a.png">';
    // Refused for its csp, a view is still built (the boot fails anyway) so that its tools' links resolve.
    expect(buildAppEntry({ uri: 'ui://c', name: 'c' }, source, handler, v, html)).toBeDefined();
    expect(buildAppEntry({ uri: 'ui://d', name: 'd', csp: {} }, source, handler, v, html)).toBeDefined();
    const csp = { resourceDomains: ['http://img.example'] };
    expect(buildAppEntry({ uri: 'ui://e', name: 'e', csp }, source, handler, v, html)).toBeDefined();
    expect(() => v.throwIfAny()).toThrow(/4 problems/);
    expect(() => v.throwIfAny()).toThrow(/V\.m: @McpApp view "ui:\/\/d": its HTML uses http:\/\/img\.example for/);
  });

  it('reads static HTML only from a method without arguments that answers a string at once', () => {
    expect(staticHtml(() => '<p>', 0)).toBe('<p>');
    expect(staticHtml(() => '<p>', 1)).toBeUndefined();
    expect(staticHtml(async () => '<p>', 0)).toBeUndefined();
    expect(
      staticHtml(() => {
        throw new Error('not ready');
      }, 0),
    ).toBeUndefined();
  });
});

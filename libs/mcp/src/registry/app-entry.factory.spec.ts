import { buildAppEntry, remoteOrigins, staticHtml } from './app-entry.factory';
import { checkApps } from './app-rules';
import { RegistryViolations } from './registry-rules';
import { ResourceEntry, ToolEntry } from './registry-entries';

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

  it('refuses a view without a ui:// URI or a name, and remote origins without a csp', () => {
    const v = new RegistryViolations();
    expect(buildAppEntry({ uri: 'https://x', name: ' ' }, source, handler, v)).toBeUndefined();
    const html = '<img src="http://img.example/a.png">';
    expect(buildAppEntry({ uri: 'ui://c', name: 'c' }, source, handler, v, html)).toBeUndefined();
    expect(buildAppEntry({ uri: 'ui://d', name: 'd', csp: {} }, source, handler, v, html)).toBeDefined();
    expect(() => v.throwIfAny()).toThrow(/3 problems/);
  });

  it('finds remote origins, ignoring XML namespaces', () => {
    const html = `<svg xmlns="http://www.w3.org/2000/svg"></svg><link href='https://CDN.example.com/x.css'>
      <script>new WebSocket("wss://rt.example"); fetch('https://api.example:8443/v1')</script>`;
    expect(remoteOrigins(html)).toEqual(['https://api.example:8443', 'https://cdn.example.com', 'wss://rt.example']);
  });

  it('counts only literal network calls inside scripts, not the URLs a bundle merely holds', () => {
    const bundle = `<script type="module">const s={$id:"http://json-schema.org/x"};throw Error("see https://github.com/x");
      await import("https://esm.example/m.js")</script>`;
    expect(remoteOrigins(bundle)).toEqual(['https://esm.example']);
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

  it('checks visibility values and scopes of app-only tools against the view', () => {
    const view = { uri: 'ui://v', ui: {}, requiredScopes: ['a'] } as unknown as ResourceEntry;
    const tool = (name: string, visibility: string[], requiredScopes: string[] = []) =>
      [
        name,
        { name, className: 'T', methodName: name, requiredScopes, ui: { resourceUri: 'ui://v', visibility } },
      ] as unknown as [string, ToolEntry];
    const v = new RegistryViolations();
    checkApps(
      new Map([
        tool('fine', ['app'], ['a']),
        tool('model_too', ['model', 'app'], ['b']),
        tool('empty', []),
        tool('odd', ['user']),
        tool('scoped', ['app'], ['a', 'b']),
      ]),
      new Map([['ui://v', view]]),
      v,
    );
    expect(() => v.throwIfAny()).toThrow(/3 problems/);
    expect(() => v.throwIfAny()).toThrow(/T\.empty: .*T\.odd: .*T\.scoped: app-only tool "scoped" requires b,/s);
  });
});

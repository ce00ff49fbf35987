import { McpAppCsp } from '../decorators/decorator-options.interface';
import { checkAppCsp } from './app-csp.rules';

function refusals(csp: McpAppCsp | undefined, html: string | undefined): string[] {
  const found: string[] = [];
  checkAppCsp('ui://v', csp, html, (message) => found.push(message));
  return found;
}

describe("a view's csp against the origins its HTML uses", () => {
  it('refuses remote origins in a view that declares no csp, and accepts a view without any', () => {
    expect(refusals(undefined, '<img src="http://img.example/a.png"><a href="https://b.example">b</a>')).toEqual([
      expect.stringMatching(
        /^@McpApp view "ui:\/\/v" declares no csp, but its HTML references http:\/\/img\.example, https:\/\/b\.example: .*csp\.resourceDomains/,
      ),
    ]);
    expect(refusals(undefined, '<svg xmlns="http://www.w3.org/2000/svg"></svg><img src="/a.png">')).toEqual([]);
  });

  it('refuses an origin the list of its kind does not cover, naming the list to add it to', () => {
    const html = '<script src="https://cdn.example/a.js"></script><script>fetch("https://api.example/x")</script>';
    expect(refusals({ connectDomains: ['https://cdn.example', 'https://api.example'] }, html)).toEqual([
      '@McpApp view "ui://v": its HTML uses https://cdn.example for scripts, styles, images, fonts, media, which ' +
        'csp.resourceDomains does not cover; add "https://cdn.example" to csp.resourceDomains',
    ]);
    expect(refusals({ resourceDomains: ['https://cdn.example', 'https://api.example'] }, html)).toEqual([
      expect.stringContaining('uses https://api.example for fetch/XHR/WebSocket, which csp.connectDomains'),
    ]);
  });

  it('checks iframes against frameDomains and <base href> against baseUriDomains', () => {
    const html = '<base href="https://base.example/"><iframe src="https://player.example/v/1"></iframe>';
    expect(refusals({ resourceDomains: ['https://base.example', 'https://player.example'] }, html)).toEqual([
      expect.stringContaining('add "https://base.example" to csp.baseUriDomains'),
      expect.stringContaining('add "https://player.example" to csp.frameDomains'),
    ]);
    expect(
      refusals({ frameDomains: ['https://player.example'], baseUriDomains: ['https://base.example'] }, html),
    ).toEqual([]);
  });

  it('accepts a use it cannot place when any list covers the origin, and refuses it when none does', () => {
    const html = '<a href="https://api.example/help">help</a><p>live at wss://rt.example</p>';
    expect(refusals({ connectDomains: ['https://api.example'], frameDomains: ['wss://rt.example'] }, html)).toEqual([]);
    expect(refusals({ connectDomains: ['https://api.example'] }, html)).toEqual([
      expect.stringMatching(/references wss:\/\/rt\.example, which no csp list covers; add "wss:\/\/rt\.example" to/),
    ]);
  });

  it('accepts origins covered by wildcard domains', () => {
    const html = '<img src="https://a.cdn.example/x.png"><script>fetch("https://api.example:8443/x")</script>';
    expect(
      refusals({ resourceDomains: ['https://*.cdn.example'], connectDomains: ['https://api.example:*'] }, html),
    ).toEqual([]);
    expect(
      refusals({ resourceDomains: ['https://*.a.cdn.example'], connectDomains: ['https://api.example'] }, html),
    ).toHaveLength(2);
  });

  it('refuses entries that are not origins, even when the HTML is not known at boot', () => {
    const csp = { connectDomains: ['https://ok.example', 'api.example.com; script-src *'], resourceDomains: 'x' };
    expect(refusals(csp as unknown as McpAppCsp, undefined)).toEqual([
      expect.stringMatching(/csp\.connectDomains entry "api\.example\.com; script-src \*" is not an origin/),
      expect.stringMatching(/csp\.resourceDomains must be a list of origins/),
    ]);
  });
});

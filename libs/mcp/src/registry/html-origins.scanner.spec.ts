import { originUses, remoteOrigins } from './html-origins.scanner';

const lists = (html: string) => originUses(html).map(({ origin, list }) => `${origin} ${list ?? '?'}`);

describe('the remote origins a view uses', () => {
  it('finds remote origins once each, lower case, ignoring XML namespaces', () => {
    const html = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink='http://www.w3.org/1999/xlink'></svg>
      <link href='https://CDN.example.com/x.css'><img src="https://cdn.example.com:443/a.png">
      <script>new WebSocket("wss://rt.example"); fetch('https://api.example:8443/v1')</script>`;
    expect(remoteOrigins(html)).toEqual(['https://api.example:8443', 'https://cdn.example.com', 'wss://rt.example']);
  });

  it('files src and href of scripts, styles, images and media under resourceDomains', () => {
    const html = `<script type="module" src="https://js.example/a.js"></script><link rel=stylesheet href=https://css.example/a.css>
      <img alt="x" srcset="/a.png 1x, https://img.example/b.png 2x"><video poster='https://media.example/p.jpg'></video>
      <svg><image xlink:href="https://svg.example/i.png"/></svg>`;
    expect(lists(html)).toEqual([
      'https://css.example resourceDomains',
      'https://img.example resourceDomains',
      'https://js.example resourceDomains',
      'https://media.example resourceDomains',
      'https://svg.example resourceDomains',
    ]);
  });

  it('files fetch, XHR, WebSocket and EventSource URLs in scripts under connectDomains', () => {
    const html = `<script>fetch("https://a.example/x"); xhr.open('POST', 'https://b.example/y');
      new WebSocket(\`wss://c.example/live\`); new EventSource("https://d.example/s")</script>`;
    expect(lists(html)).toEqual([
      'https://a.example connectDomains',
      'https://b.example connectDomains',
      'https://d.example connectDomains',
      'wss://c.example connectDomains',
    ]);
  });

  it('files iframes under frameDomains, <base href> under baseUriDomains, CSS and imports under resourceDomains', () => {
    const html = `<base href="https://base.example/"><iframe src="https://frame.example/embed"></iframe>
      <style>@import "https://css.example/a.css"; body { background: url( 'https://img.example/bg.png') }</style>
      <script type="module">import x from "https://esm.example/x.js"; await import('https://dyn.example/y.js')</script>
      <div style="background:url(https://inline.example/a.png)"></div>`;
    expect(lists(html)).toEqual([
      'https://base.example baseUriDomains',
      'https://css.example resourceDomains',
      'https://dyn.example resourceDomains',
      'https://esm.example resourceDomains',
      'https://frame.example frameDomains',
      'https://img.example resourceDomains',
      'https://inline.example resourceDomains',
    ]);
  });

  it('leaves the list open when the markup does not tell how the URL is used', () => {
    const html = `<a href="https://docs.example/help">help</a> see https://text.example.
      <img src="/go?to=https://param.example/x"><script>const API = "https://api.example"; fetch(API + "/x")</script>`;
    expect(lists(html)).toEqual(['https://docs.example ?', 'https://param.example ?', 'https://text.example ?']);
  });

  it('leaves out the URLs an inline script holds without a call naming them (a bundle: schema ids, links)', () => {
    const bundle = `<script type="module">const s={$id:"http://json-schema.org/x"};throw Error("see https://github.com/x");
      const base = new URL("https://base.example/");
      await import("https://esm.example/m.js")</script><p>after https://text.example</p>`;
    expect(lists(bundle)).toEqual(['https://esm.example resourceDomains', 'https://text.example ?']);
  });

  it('skips hosts built at run time and impossible ports', () => {
    const html =
      '<script>fetch(`https://${host}/x`); fetch(`https://api.${env}.example`); fetch("https://a.example:99999")</script>';
    expect(originUses(html)).toEqual([]);
  });
});

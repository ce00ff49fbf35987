import { escapeHtml, html } from './html-template.util';

describe('html template', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('escapes interpolated values and arrays of them, keeps nested templates, drops empty parts', () => {
    const evil = '<script>alert(1)</script>';
    const out = html`<ul>${[evil, html`<li>${evil}</li>`]}</ul>${undefined}${null}${false}${0}`.value;
    expect(out).toBe('<ul>&lt;script&gt;alert(1)&lt;/script&gt;<li>&lt;script&gt;alert(1)&lt;/script&gt;</li></ul>0');
  });

  it('escapes attribute values so they cannot break out of their quotes', () => {
    expect(html`<option data-example="${'{"a":"\'><img src=x>"}'}">`.value).toBe(
      '<option data-example="{&quot;a&quot;:&quot;&#39;&gt;&lt;img src=x&gt;&quot;}">',
    );
  });
});

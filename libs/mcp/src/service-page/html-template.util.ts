/** Markup that is already safe: produced by {@link html}, never by string concatenation. @internal */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. @internal */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * Tagged template that escapes every interpolated value unless it is {@link SafeHtml} (or an array
 * of them), so a catalogue entry can never inject markup into the page. `undefined`, `null` and
 * `false` render as nothing, which keeps optional parts short.
 * @internal
 *
 * @example html`<li title="${tool.title}">${tool.name}</li>`
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  values.forEach((v, i) => (out += fragment(v) + strings[i + 1]));
  return new SafeHtml(out);
}

function fragment(value: unknown): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(fragment).join('');
  return escapeHtml(value);
}

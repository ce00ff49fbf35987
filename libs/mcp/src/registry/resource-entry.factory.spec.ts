import { buildTemplateEntry } from './resource-entry.factory';
import { RegistryViolations } from './registry-rules';

describe('resource templates', () => {
  const handler = async () => 'x';
  const source = { className: 'R', methodName: 'm' };

  it('matches RFC 6570 templates and refuses a variable that swallows a separator', () => {
    const v = new RegistryViolations();
    const t = buildTemplateEntry(
      { uriTemplate: 'svc://tickets/{id}', name: 't', mimeType: 'text/plain' },
      source,
      handler,
      'svc',
      v,
    )!;
    expect(t.match('svc://tickets/HD-1')).toEqual({ id: 'HD-1' });
    expect(t.match('svc://tickets/a/b')).toBeNull();
    expect(t.match('svc://other/1')).toBeNull();
    expect(t.match('svc://tickets/HD-1,HD-2')).toBeNull();
    const multi = buildTemplateEntry(
      { uriTemplate: 'svc://{kind}/{id}/data', name: 't', mimeType: 'text/plain' },
      source,
      handler,
      'svc',
      v,
    )!;
    expect(multi.match('svc://orders/42/data')).toEqual({ kind: 'orders', id: '42' });
    expect(() => v.throwIfAny()).not.toThrow();
  });

  it('refuses templates without variables or on a foreign scheme', () => {
    const v = new RegistryViolations();
    expect(
      buildTemplateEntry({ uriTemplate: 'svc://fixed', name: 't', mimeType: 'text/plain' }, source, handler, 'svc', v),
    ).toBeUndefined();
    expect(
      buildTemplateEntry(
        { uriTemplate: 'file:///{path}', name: 't', mimeType: 'text/plain' },
        source,
        handler,
        'svc',
        v,
      ),
    ).toBeUndefined();
    expect(() => v.throwIfAny()).toThrow(
      /R\.m: resource template "svc:\/\/fixed" is not a valid RFC 6570 template[\s\S]*R\.m: resource template "file:\/\/\/\{path\}": scheme must be/,
    );
  });
});

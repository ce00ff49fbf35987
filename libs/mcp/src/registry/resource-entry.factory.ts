import { McpResourceOptions, McpResourceTemplateOptions } from '../decorators/decorator-options.interface';
import { CORPORATE_SCHEMES, RegistryViolations, uriScheme } from './registry-rules';
import { UriTemplateMatcher } from './uri-template.matcher';
import { McpHandler, ResourceEntry, ResourceTemplateEntry } from './registry-entries';

/** The only URIs the corporate schemes allow (standard §11.1-11.2, see docs/compliance.md#s11). @internal */
export const CORPORATE_URIS = new Set(['use://http-headers', 'use://auth', 'project://version', 'doc://readme']);

type Source = { className: string; methodName: string };
const pick = <T extends object>(o: T, keys: (keyof T)[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

function checkScheme(
  uri: string,
  service: string,
  label: string,
  where: string,
  violations: RegistryViolations,
): boolean {
  const scheme = uriScheme(uri);
  if (scheme === service.toLowerCase()) return true;
  if (scheme && (CORPORATE_SCHEMES as readonly string[]).includes(scheme)) {
    if (CORPORATE_URIS.has(uri)) return true;
    violations.add(
      where,
      `${label} "${uri}": the corporate scheme ${scheme}:// allows only ${[...CORPORATE_URIS].join(', ')}`,
    );
    return false;
  }
  violations.add(
    where,
    `${label} "${uri}": scheme must be "${service}://" or one of ${CORPORATE_SCHEMES.map((s) => `${s}://`).join(', ')}`,
  );
  return false;
}

/** @internal */
export function buildResourceEntry(
  o: McpResourceOptions,
  source: Source,
  handler: McpHandler,
  service: string,
  violations: RegistryViolations,
): ResourceEntry | undefined {
  const where = `${source.className}.${source.methodName}`;
  if (!o.name?.trim()) violations.add(where, `resource "${o.uri}" has no name`);
  if (!o.mimeType) violations.add(where, `resource "${o.uri}" has no mimeType`);
  if (!checkScheme(o.uri, service, 'resource', where, violations) || !o.name?.trim() || !o.mimeType) return undefined;
  const definition = pick(o, [
    'uri',
    'name',
    'title',
    'description',
    'mimeType',
    'size',
    'icons',
    'annotations',
    '_meta',
  ]);
  return { uri: o.uri, mimeType: o.mimeType, definition, handler, ...source };
}

/** @internal */
export function buildTemplateEntry(
  o: McpResourceTemplateOptions,
  source: Source,
  handler: McpHandler,
  service: string,
  violations: RegistryViolations,
): ResourceTemplateEntry | undefined {
  const where = `${source.className}.${source.methodName}`;
  if (!checkScheme(o.uriTemplate, service, 'resource template', where, violations)) return undefined;
  let template: UriTemplateMatcher;
  try {
    template = new UriTemplateMatcher(o.uriTemplate);
    if (!/\{[^}]+\}/.test(o.uriTemplate)) throw new Error('it has no variable');
  } catch (e) {
    violations.add(
      where,
      `resource template "${o.uriTemplate}" is not a valid RFC 6570 template: ${(e as Error).message}`,
    );
    return undefined;
  }
  if (!o.name?.trim() || !o.mimeType) {
    violations.add(where, `resource template "${o.uriTemplate}" needs a name and a mimeType`);
    return undefined;
  }
  const definition = pick(o, [
    'uriTemplate',
    'name',
    'title',
    'description',
    'mimeType',
    'icons',
    'annotations',
    '_meta',
  ]);
  const match = (uri: string): Record<string, string> | null => template.match(uri);
  return { uriTemplate: o.uriTemplate, mimeType: o.mimeType, definition, match, handler, ...source };
}

import { InvalidParamsError, McpError, ResourceNotFoundError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';
import { McpHandler } from '../../registry/registry-entries';
import { McpRegistry } from '../../registry/mcp.registry';
import { invoke } from '../../pipeline/invocation.stage';
import { assertScopes } from '../../auth/scopes';
import { MethodResult, HandlerContext, sessionOf, uriParam } from './handler-context';
import { skillFileContents } from './skills.handler';

/** `resources/list`. @internal */
export const listResources = ({ registry, params, peer, principal }: HandlerContext): MethodResult => ({
  raw: registry.page('resources', peer.protocolVersion, params.cursor, principal),
});
/** `resources/templates/list`. @internal */
export const listTemplates = ({ registry, params, peer, principal }: HandlerContext): MethodResult => ({
  raw: registry.page('resourceTemplates', peer.protocolVersion, params.cursor, principal),
});

/**
 * `resources/read`: a skill file first (held in memory, looked up by exact URI), then the app's resources by exact
 * URI, then the templates in registration order.
 * @internal
 */
export async function readResource(request: HandlerContext): Promise<MethodResult> {
  const uri = uriParam(request.params);
  const { registry } = request;
  // A skill file the caller may not see falls through to "not found", as an unknown URI does.
  const skillFile = registry.skills.file(uri, McpRegistry.skillAccess(request.principal));
  if (skillFile) return skillFileContents(skillFile);
  let handler: McpHandler | undefined;
  let args: Record<string, unknown> = {};
  let mimeType = 'text/plain';
  let meta: Record<string, unknown> | undefined;
  const fixed = registry.resources.get(uri);
  if (fixed) {
    // Pipeline handlers are also checked by the scopes guard; run-time resources only here.
    assertScopes(request.principal, fixed.requiredScopes);
    handler = fixed.handler;
    mimeType = fixed.mimeType;
    // An MCP Apps view sends its `_meta.ui` with the content too (docs/apps.md).
    if (fixed.ui && Object.keys(fixed.ui).length) meta = { ui: fixed.ui };
  } else {
    for (const t of registry.templates.values()) {
      const vars = t.match(uri);
      if (vars) {
        handler = t.handler;
        args = vars;
        mimeType = t.mimeType;
        break;
      }
    }
  }
  if (!handler) throw notFound(request, uri);
  const outcome = await invoke(request, { kind: 'resource', target: uri, method: handler, args }).catch(
    (error: unknown) => {
      // A provider's own "not found" (ResourceNotFoundError) names the URI the same way in each era.
      throw error instanceof McpError && error.code === ErrorCode.ResourceNotFound ? notFound(request, uri) : error;
    },
  );
  if ('inputRequired' in outcome) return outcome.inputRequired;
  if ('failure' in outcome) throw new InvalidParamsError(outcome.failure);
  if (outcome.value === undefined || outcome.value === null) throw notFound(request, uri);
  const result = normaliseContents(outcome.value, uri, mimeType);
  if (meta) result.contents = result.contents.map((c) => ({ ...c, _meta: { ...meta, ...(c._meta as object) } }));
  return result;
}

/**
 * A resource that does not exist: `-32602` with `data.uri` in 2026-07-28 (the client's own URI, bounded by `uriParam`),
 * `-32002` to the 2025 revisions that defined it (corporate v2.0 Annex D).
 */
function notFound(request: HandlerContext, uri: string): Error {
  if (!request.peer.era.modern) return new ResourceNotFoundError();
  return new McpError(ErrorCode.InvalidParams, 'Resource not found', { uri, reason: 'not_found' });
}

function normaliseContents(
  value: unknown,
  uri: string,
  mimeType: string,
): Record<string, unknown> & { contents: Record<string, unknown>[] } {
  if (value === undefined || value === null) throw new ResourceNotFoundError();
  if (typeof value === 'string') return { contents: [{ uri, mimeType, text: value }] };
  if (value instanceof Uint8Array)
    return { contents: [{ uri, mimeType, blob: Buffer.from(value).toString('base64') }] };
  if (typeof value === 'object' && Array.isArray((value as { contents?: unknown }).contents)) {
    const contents = (value as { contents: Record<string, unknown>[] }).contents.map((c) => ({ uri, mimeType, ...c }));
    return { ...(value as Record<string, unknown>), contents };
  }
  if (typeof value === 'object') return { contents: [{ uri, mimeType, text: JSON.stringify(value) }] };
  return { contents: [{ uri, mimeType, text: String(value) }] };
}

/** `resources/subscribe` and `resources/unsubscribe`. @internal */
const MAX_SUBSCRIPTIONS = 1_000;

export function subscribe(request: HandlerContext): MethodResult {
  const uri = uriParam(request.params);
  const { registry } = request;
  const session = sessionOf(request);
  const entry = registry.resources.get(uri) ?? [...registry.templates.values()].find((t) => t.match(uri) !== null);
  if (!entry) throw notFound(request, uri);
  assertScopes(request.principal, entry.requiredScopes);
  if (!session.subscriptions.has(uri) && session.subscriptions.size >= MAX_SUBSCRIPTIONS) {
    throw new InvalidParamsError(`Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} per session`, {
      field: 'uri',
      reason: 'limit',
    });
  }
  session.subscribe(uri);
  return {};
}
export function unsubscribe(request: HandlerContext): MethodResult {
  sessionOf(request).unsubscribe(uriParam(request.params));
  return {};
}

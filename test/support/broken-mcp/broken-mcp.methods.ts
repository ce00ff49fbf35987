import { Defects } from './defects';
import {
  SERVICE,
  SKILL_ENTRY,
  SKILL_MD,
  TEMPLATES,
  capabilities,
  prompts,
  resources,
  tools,
} from './broken-mcp.catalogue';

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** A JSON-RPC request as this server reads it. */
export interface Message {
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/** An HTTP answer: status and JSON body (none for 202). */
export interface Answer {
  status: number;
  body?: unknown;
}

const error = (m: Message, status: number, code: number, message: string, data?: unknown): Answer => ({
  status,
  body: { jsonrpc: '2.0', id: m.id ?? null, error: { code, message, ...(data ? { data } : {}) } },
});

/** The name a 2026-07-28 request must repeat in `Mcp-Name`, for the methods that have one. */
function nameOf(m: Message): string | undefined {
  if (m.method === 'tools/call' || m.method === 'prompts/get') return String(m.params?.name);
  if (m.method === 'resources/read') return String(m.params?.uri);
  return undefined;
}

/** The checks of a 2026-07-28 request's headers against its body, or the refusal. */
export function modernHeaders(m: Message, h: Record<string, string | undefined>, d: Defects): Answer | undefined {
  const version = m.params?._meta?.[META_VERSION];
  if (version !== MODERN)
    return d.unsupportedVersionCode
      ? error(m, 400, -32600, 'Unsupported protocol version')
      : error(m, 400, -32022, 'Unsupported protocol version', { supported: [MODERN, LEGACY] });
  if (d.headerMismatchTaken) return undefined;
  if (h['mcp-protocol-version'] !== version) return error(m, 400, -32020, 'MCP-Protocol-Version does not match _meta');
  if (h['mcp-method'] !== m.method) return error(m, 400, -32020, 'Mcp-Method does not match the body');
  const name = nameOf(m);
  if (name !== undefined && h['mcp-name'] !== name) return error(m, 400, -32020, 'Mcp-Name does not match the body');
  return undefined;
}

/** Answers one request of either era (`modern`: a 2026-07-28 request, already checked). */
export function answer(m: Message, modern: boolean, d: Defects, version: string, calls: number): Answer {
  const info = { name: SERVICE, version };
  const cached = { ttlMs: 0, cacheScope: 'private' };
  const ok = (result: Record<string, unknown>, cache = false): Answer => ({
    status: 200,
    body: {
      jsonrpc: '2.0',
      id: m.id,
      result: modern
        ? {
            ...(d.noResultType ? {} : { resultType: 'complete' }),
            ...(cache ? cached : {}),
            ...result,
            _meta: { 'io.modelcontextprotocol/serverInfo': info },
          }
        : result,
    },
  });
  const unknownMethod = () =>
    d.wrongUnknownMethodCode
      ? error(m, 400, -32600, 'Invalid request')
      : error(m, modern ? 404 : 200, -32601, 'Method not found');
  const caps = capabilities(d);
  switch (m.method) {
    case 'initialize':
      if (modern) return unknownMethod();
      return ok({
        protocolVersion: LEGACY,
        capabilities: caps,
        serverInfo: d.initializeWithoutVersion ? { name: SERVICE } : info,
      });
    case 'server/discover':
      if (!modern) return unknownMethod();
      return ok({ supportedVersions: [MODERN, LEGACY], capabilities: caps });
    case 'ping':
      return ok({});
    case 'tools/list': {
      const list = tools(d);
      return ok({ tools: d.unstableToolOrder && calls % 2 ? list.reverse() : list }, true);
    }
    case 'tools/call':
      return callTool(m, modern, d, ok);
    case 'prompts/list':
      return ok({ prompts: prompts(d) }, true);
    case 'prompts/get': {
      const prompt = prompts(d).find((p) => p.name === m.params?.name);
      if (prompt)
        return ok({ messages: [{ role: 'user', content: { type: 'text', text: String(prompt.description) } }] });
      if (d.unknownNameAsMethodNotFound) return error(m, modern ? 404 : 200, -32601, 'Method not found');
      return error(m, modern ? 400 : 200, -32602, 'Unknown prompt', { field: 'name' });
    }
    case 'resources/list':
      return ok({ resources: resources(d).map(({ text: _text, ...r }) => r) }, true);
    case 'resources/templates/list':
      return ok({ resourceTemplates: TEMPLATES }, true);
    case 'skills/list':
      return ok({ skills: [SKILL_ENTRY] }, true);
    case 'resources/read': {
      if (m.params?.uri === SKILL_MD.uri && !d.skillUnreadable) return ok({ contents: [SKILL_MD] }, true);
      const found = resources(d).find((r) => r.uri === m.params?.uri);
      if (!found && d.unknownNameAsMethodNotFound) return error(m, modern ? 404 : 200, -32601, 'Method not found');
      if (!found)
        return modern && !d.legacyNotFoundInModern
          ? error(m, 400, -32602, 'Resource not found', { uri: m.params?.uri })
          : error(m, modern ? 400 : 200, -32002, 'Resource not found', { uri: m.params?.uri });
      const { name: _name, ...content } = found;
      return ok({ contents: [d.readWithoutMimeType ? { uri: content.uri, text: content.text } : content] }, true);
    }
    case 'resources/subscribe':
      return d.subscribeUndeclared ? ok({}) : unknownMethod();
    default:
      return unknownMethod();
  }
}

function callTool(m: Message, modern: boolean, d: Defects, ok: (r: Record<string, unknown>) => Answer): Answer {
  const name = m.params?.name;
  const tool = tools(d).find((t) => t.name === name);
  if (!tool && d.unknownNameAsMethodNotFound) return error(m, modern ? 404 : 200, -32601, 'Method not found');
  if (!tool) return error(m, modern ? 400 : 200, -32602, 'Unknown tool', { field: 'name' });
  const args = (m.params?.arguments ?? {}) as Record<string, unknown>;
  if (name === 'list_incidents') {
    if (typeof args.since === 'string' || d.secondToolUnvalidated)
      return ok({ content: [{ type: 'text', text: '[]' }] });
    return ok({ content: [{ type: 'text', text: 'Invalid arguments: since must be a string' }], isError: true });
  }
  if (typeof args.service !== 'string') {
    if (d.validationAsInternalError) return error(m, modern ? 500 : 200, -32603, 'Internal error');
    if (d.validationAsRpcError) return error(m, modern ? 400 : 200, -32602, 'Invalid params', { field: 'service' });
    const text = d.validationWithoutField ? 'Invalid arguments' : 'Invalid arguments: service must be a string';
    return ok({ content: [{ type: 'text', text }], isError: true });
  }
  return ok({ content: [{ type: 'text', text: `${args.service}: up` }] });
}

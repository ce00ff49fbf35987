import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpDispatcher } from '../../protocol/mcp.dispatcher';
import { modernHttpStatusFor } from '../../errors/http-status';
import { existingRequestId as requestIdOf } from '../../http-adapter/request-id';
import { principalOf } from '../../auth/mcp-principal';
import { McpChallenge } from '../../auth/mcp-challenge';
import { hasModernMeta } from '../../wire/meta-keys';
import { isSupportedVersion } from '../../wire/protocol-version';
import { ModernResponseChannel } from './modern-response.channel';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * Whether a POSTed body is a 2026-07-28 message: it carries the per-request protocol version in `_meta`, or it names
 * a revision in `MCP-Protocol-Version` that is not a 2025 one and opens no session (such a request is then answered
 * in this era's terms: `-32602` for the missing `_meta`, `-32022` for a revision we do not speak). A 2025 client
 * (`initialize`, `Mcp-Session-Id`) never matches.
 * @internal
 */
export function isModernPost(body: unknown, req: IncomingMessage): boolean {
  if (Array.isArray(body) || typeof body !== 'object' || body === null) return false;
  const message = body as { method?: unknown; params?: unknown };
  if (hasModernMeta(message.params)) return true;
  const version = header(req, 'mcp-protocol-version');
  return (
    version !== undefined &&
    !isSupportedVersion(version) &&
    header(req, 'mcp-session-id') === undefined &&
    message.method !== 'initialize'
  );
}

/**
 * Streamable HTTP for 2026-07-28: one POST, one request, no session. The answer is JSON or an SSE stream of that
 * request only; the HTTP status follows the revision (400 for request errors, 404 for unknown methods) and the
 * corporate mapping for the rest; a client closing the stream cancels the call.
 * @internal
 */
@Injectable()
export class ModernHttpHandler {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly challenge: McpChallenge,
  ) {}

  async post(body: unknown, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const channel = new ModernResponseChannel(res);
    const outcome = await this.dispatcher.dispatchModern(body, {
      transport: 'http',
      sink: channel,
      rid: requestIdOf(req),
      principal: principalOf(req),
      headers: {
        protocolVersion: header(req, 'mcp-protocol-version'),
        method: header(req, 'mcp-method'),
        name: header(req, 'mcp-name'),
        params: paramHeaders(req),
      },
      closed: channel.closed,
    });
    if (!outcome) {
      // A notification (accepted, nothing to say) or a request the client cancelled by leaving.
      if (channel.closed.aborted) return channel.abandon();
      return void res.writeHead(202).end();
    }
    const extra: Record<string, string> = {};
    if (outcome.scopeDenied) {
      extra['WWW-Authenticate'] = this.challenge.insufficientScope(req, outcome.scopeDenied.join(' '));
      return channel.finish(outcome.body, 403, extra);
    }
    const status = modernHttpStatusFor(outcome.errorCode);
    const retryAfter = (outcome.errorData as { retryAfter?: number } | undefined)?.retryAfter;
    if (status === 429 || status === 503) extra['Retry-After'] = String(retryAfter ?? 1);
    channel.finish(outcome.body, status, extra);
  }
}

/** `Mcp-Param-*` headers by their lower-cased name part. */
function paramHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (name.startsWith('mcp-param-') && value !== undefined)
      out[name.slice('mcp-param-'.length)] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

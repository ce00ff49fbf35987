import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { McpSession } from '../../sessions/mcp-session';
import { ErrorCode } from '../../wire/json-rpc';
import { isSupportedVersion } from '../../wire/protocol-version';
import { MCP_EVENT_STORE, McpEventStore, McpReplay } from '../../stores/event.store';
import { accepts } from './http-checks';
import { sendHttpError } from '../../errors/send-http-error';
import { noModernFunction, sendRefusal, storeUnavailable } from './http-refusals';
import { SseStream, frame, frameLength } from './sse-stream';
import { isAnonymous } from '../../auth/anonymous-access';
import { McpAuthError } from '../../auth/mcp-auth.error';
import { principalOf } from '../../auth/mcp-principal';
import { McpAdmission } from '../../admission/mcp-admission.service';
import { EventLogBudget } from '../../limits/event-log-budget';
import { findHttpSession } from './http-session.lookup';

const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';

/**
 * The 2025 sessions' SSE streams over Streamable HTTP: the GET stream, `Last-Event-ID` resumption and `DELETE`. Each
 * GET and DELETE counts against the caller's request budget like a POST, a new GET stream takes one of the caller's
 * stream places, and the bytes a resume replays count against `limits.replayBytesPerMinute`:
 * a replay is a whole stream sent again, and 240 of them sent 1 GB in 16 s outside every budget.
 * @internal
 */
@Injectable()
export class McpSessionStreams {
  /** Every SSE stream of this replica by id: GET streams and POST answers streaming as SSE. */
  readonly streams = new Map<string, SseStream>();

  constructor(
    private readonly sessions: McpSessionManager,
    @Inject(MCP_EVENT_STORE) private readonly events: McpEventStore,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly admission: McpAdmission,
    private readonly budget: EventLogBudget,
  ) {
    sessions.onClose((s, ended) => {
      if (s.transport !== 'http') return;
      for (const [id, stream] of this.streams) {
        if (stream.sessionId !== s.id) continue;
        stream.end();
        this.streams.delete(id);
      }
      // Only a session ended everywhere loses its event logs: a replica that lets its copy go (idle here, shutdown)
      // leaves them for a resume on another.
      if (ended) events.dropSession(s.id);
    });
  }

  async get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (noModernFunction(req, res, 'GET')) return;
    if (isAnonymous(req)) throw new McpAuthError(401, undefined, 'Authentication required', 'anonymous GET');
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return sendHttpError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list text/event-stream');
    }
    const version = req.headers[VERSION_HEADER] as string | undefined;
    if (version !== undefined && !isSupportedVersion(version)) {
      return sendHttpError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: unsupported MCP-Protocol-Version');
    }
    const session = await findHttpSession(this.sessions, req.headers[SESSION_HEADER] as string | undefined, req, res);
    if (!session || !(await this.withinBudget(req, res, session, 'http_get'))) return;
    const headers = { 'Mcp-Session-Id': session.id };
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId.length > 0)
      return this.resume(lastEventId, req, session, res, headers);
    // The GET stream outlives its connection (messages are stored for a Last-Event-ID resume);
    // only a connected one blocks a new GET. A fresh GET (no Last-Event-ID) replaces a disconnected one.
    const current = session.standalone instanceof SseStream ? session.standalone : undefined;
    if (current?.connected)
      return sendHttpError(res, 409, ErrorCode.InvalidRequest, 'Conflict: this session already has an open GET stream');
    let release: () => void;
    try {
      release = await this.admission.stream('http', principalOf(req) ?? session.principal);
    } catch (error) {
      return sendRefusal(res, error, 'GET');
    }
    if (current) {
      current.end();
      this.streams.delete(current.id);
    }
    const stream = new SseStream(this.events, session.id, { onEnd: release, keep: this.budget.keeper(session) });
    this.streams.set(stream.id, stream);
    session.standalone = stream;
    stream.attach(res, headers, session.era.sseResumePriming ? this.options.sseRetryMs : undefined);
  }

  async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (noModernFunction(req, res, 'DELETE')) return;
    if (isAnonymous(req)) throw new McpAuthError(401, undefined, 'Authentication required', 'anonymous DELETE');
    const session = await findHttpSession(this.sessions, req.headers[SESSION_HEADER] as string | undefined, req, res);
    if (!session || !(await this.withinBudget(req, res, session, 'http_delete'))) return;
    await this.sessions.close(session);
    res.writeHead(200).end();
  }

  private async resume(
    lastEventId: string,
    req: IncomingMessage,
    session: McpSession,
    res: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void> {
    let found: McpReplay | undefined;
    try {
      found = await this.events.replayAfter(lastEventId.slice(0, 256), session.id);
    } catch (error) {
      return storeUnavailable(res, error, 'event log');
    }
    if (!found) return sendHttpError(res, 404, ErrorCode.InvalidRequest, 'Not Found: unknown or expired Last-Event-ID');
    // Charged before anything is written or framed: a refused replay costs a look-up, not a copy of the stream.
    const bytes = found.events.reduce((n, [id, json]) => n + frameLength(id, json), 0);
    if (bytes > 0) {
      try {
        await this.admission.replay('http', principalOf(req) ?? session.principal, bytes);
      } catch (error) {
        return sendRefusal(res, error, 'GET');
      }
    }
    const frames = found.events.map(([id, json]) => frame(id, json));
    const live = found.complete ? undefined : this.streams.get(found.streamId);
    if (live) {
      live.attach(res, headers);
      for (const f of frames) live.writeFrame(f);
      return;
    }
    // A finished stream: replay what was missed and end; nothing stays attached.
    res.on('error', () => undefined);
    res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform' });
    res.end(frames.join(''));
  }

  /** Counts the request against the caller's request budget; answers 429 itself and returns false when over it. */
  private async withinBudget(
    req: IncomingMessage,
    res: ServerResponse,
    session: McpSession,
    label: string,
  ): Promise<boolean> {
    try {
      await this.admission.request('http', principalOf(req) ?? session.principal, label);
      return true;
    } catch (error) {
      sendRefusal(res, error, label);
      return false;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/session.store';
import { MCP_EVENT_STORE, McpEventStore } from '../stores/event.store';
import { MCP_LIMIT_STORE, McpLimitStore } from '../stores/limit.store';
import { MCP_TASK_STORE, McpTaskStore } from '../stores/task.store';
import { MCP_TASK_QUEUE, McpTaskQueue } from '../tasks/task.queue';
import { McpRegistry } from '../registry/mcp.registry';
import { probeIntrospection, probeJwks } from './http-probes';
import { Probe } from './probe-runner';

/** A named readiness probe. @internal */
export interface NamedProbe {
  key: string;
  probe: Probe;
}

/**
 * The platform's own readiness probes, from the resolved configuration:
 * - `jwks` whenever tokens are verified against a JWKS (the development issuer included: it is a
 *   real JWKS on loopback); none when auth is disabled or tokens are HS256 / introspection only;
 * - `introspection` when an introspection endpoint is configured (reachability only);
 * - `session_store`, `event_store`, `limit_store`: the store's `ping()`; a store without one lives
 *   in this process and is always up;
 * - `task_store` and `task_queue` only in an app with task tools (the queue is required only there).
 * @internal
 */
@Injectable()
export class PlatformProbesFactory {
  constructor(
    @Inject(MCP_AUTH_CONFIG) private readonly auth: ResolvedAuthConfig,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    @Inject(MCP_EVENT_STORE) private readonly events: McpEventStore,
    @Inject(MCP_LIMIT_STORE) private readonly limits: McpLimitStore,
    @Inject(MCP_TASK_STORE) private readonly tasks: McpTaskStore,
    @Inject(MCP_TASK_QUEUE) private readonly queue: McpTaskQueue,
    private readonly registry: McpRegistry,
  ) {}

  create(): NamedProbe[] {
    const probes: NamedProbe[] = [];
    const { mode, jwks, jwksUri, introspection } = this.auth;
    if (mode === 'jwt' && jwks && jwksUri)
      probes.push({ key: 'jwks', probe: (signal) => probeJwks(jwksUri, signal).then(() => 'up') });
    if (mode === 'jwt' && introspection)
      probes.push({
        key: 'introspection',
        probe: (signal) => probeIntrospection(introspection.url, signal).then(() => 'up'),
      });
    probes.push(
      storeProbe('session_store', this.sessions),
      storeProbe('event_store', this.events),
      storeProbe('limit_store', this.limits),
    );
    if ([...this.registry.tools.values()].some((t) => t.task))
      probes.push(storeProbe('task_store', this.tasks), storeProbe('task_queue', this.queue));
    return probes;
  }
}

function storeProbe(key: string, store: { ping?(): Promise<void> }): NamedProbe {
  return { key, probe: async () => (await store.ping?.(), 'up') };
}

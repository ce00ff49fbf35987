import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  Client as Client2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransport2,
} from '@modelcontextprotocol/client';

/**
 * A session of an official client (1.x or 2.x) behind one interface, so that the same cross-replica tests drive
 * both. It confirms every elicitation, answers every sampling request with "Dear requester" and records the
 * resource updates it receives.
 */
export interface SdkSession {
  sessionId: string;
  /** URIs of the `notifications/resources/updated` received, in order. */
  updated: string[];
  /** The server requests the client answered (`elicitation/create`, `sampling/createMessage`), in order. */
  answered: string[];
  /** The JSON-RPC ids of those server requests, in the same order. */
  answeredIds: string[];
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  subscribe(uri: string): Promise<void>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

export interface CallOptions {
  onprogress?: (p: { progress: number; total?: number }) => void;
  signal?: AbortSignal;
}

export interface ToolResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
}

export type ConnectSdk = (endpoint: URL, token: string) => Promise<SdkSession>;

const capabilities = { sampling: {}, elicitation: {} };
const CONFIRM = { action: 'accept', content: { confirm: true } } as const;
const DRAFT = { role: 'assistant', content: { type: 'text', text: 'Dear requester' }, model: 'test-model' } as const;

/** The official 1.x client (`@modelcontextprotocol/sdk`). */
export const connectSdk1: ConnectSdk = async (endpoint, token) => {
  const client = new Client({ name: 'replicas-1x', version: '1.0.0' }, { capabilities });
  const updated: string[] = [];
  const answered: string[] = [];
  const answeredIds: string[] = [];
  const answer = (method: string, id: unknown) => (answered.push(method), answeredIds.push(String(id)));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  client.setRequestHandler(
    ElicitRequestSchema,
    async (_, extra) => (answer('elicitation/create', extra.requestId), CONFIRM),
  );
  client.setRequestHandler(
    CreateMessageRequestSchema,
    async (_, extra) => (answer('sampling/createMessage', extra.requestId), DRAFT),
  );
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    sessionId: transport.sessionId!,
    updated,
    answered,
    answeredIds,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    // 1.x types a result as the current shape or the old `toolResult` one; these servers send the current one.
    call: async (name, args, options) =>
      (await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult,
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    ping: () => client.ping(),
    close: () => client.close(),
  };
};

/** The official 2.x client (`@modelcontextprotocol/client`). */
export const connectSdk2: ConnectSdk = async (endpoint, token) => {
  const client = new Client2({ name: 'replicas-2x', version: '2.0.0' }, { capabilities });
  const updated: string[] = [];
  const answered: string[] = [];
  const answeredIds: string[] = [];
  const answer = (method: string, id: unknown) => (answered.push(method), answeredIds.push(String(id)));
  client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
  client.setRequestHandler(
    'elicitation/create',
    async (_, ctx) => (answer('elicitation/create', ctx.mcpReq.id), CONFIRM),
  );
  client.setRequestHandler(
    'sampling/createMessage',
    async (_, ctx) => (answer('sampling/createMessage', ctx.mcpReq.id), DRAFT),
  );
  const transport = new StreamableHTTPClientTransport2(endpoint, { authProvider: { token: async () => token } });
  await client.connect(transport);
  return {
    sessionId: transport.sessionId!,
    updated,
    answered,
    answeredIds,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args, options) => client.callTool({ name, arguments: args }, options),
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    ping: () => client.ping(),
    close: () => client.close(),
  };
};

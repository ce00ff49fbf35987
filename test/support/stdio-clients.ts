import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import { DESK_MAIN } from './server-process';

/** The environment for a spawned stdio server: ours, without jest's NODE_OPTIONS. */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, NODE_OPTIONS: '', ...extra };
}

export const STDIO_SERVER = { command: process.execPath, args: [DESK_MAIN, '--stdio'] };

export interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}
export interface CallOptions {
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
}
export interface SamplingRequestLike {
  params: { messages: { role: string; content: unknown }[]; maxTokens: number };
}
export interface SamplingResultLike {
  [key: string]: unknown;
  role: 'assistant';
  model: string;
  content: { type: 'text'; text: string };
}

/** What both SDK generations offer, under one shape, so one suite drives either over stdio. */
export interface StdioSession {
  client: {
    listTools(): Promise<{
      tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[];
      nextCursor?: string;
    }>;
    listPrompts(): Promise<{ prompts: { name: string; arguments?: unknown[] }[] }>;
    listResources(): Promise<{ resources: { uri: string }[] }>;
    listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
    readResource(p: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: unknown }[] }>;
    getPrompt(p: {
      name: string;
      arguments?: Record<string, string>;
    }): Promise<{ messages: { role: string; content: unknown }[] }>;
    ping(): Promise<object>;
    getServerVersion(): { name: string; version: string } | undefined;
    getServerCapabilities(): Record<string, unknown> | undefined;
  };
  /** Every JSON-RPC message the client sent and received, as the transport saw it. */
  sent: WireMessage[];
  received: WireMessage[];
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<ToolResultLike>;
  onSampling(handler: (req: SamplingRequestLike) => Promise<SamplingResultLike>): void;
  onLog(handler: (data: unknown) => void): void;
  /** Errors the client reported through `onerror` (e.g. a response to a request it had cancelled). */
  errors: string[];
  stderr(): string;
  pid(): number | null;
  close(): Promise<void>;
}

export interface WireMessage {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Records a transport's traffic. Protocol.connect() installs onmessage before start(), so wrap there. */
function tap(transport: object): { sent: WireMessage[]; received: WireMessage[] } {
  const sent: WireMessage[] = [];
  const received: WireMessage[] = [];
  const t = transport as unknown as {
    start(): Promise<void>;
    send(m: WireMessage, ...r: unknown[]): Promise<void>;
    onmessage?: (m: WireMessage, ...r: unknown[]) => void;
  };
  const start = t.start.bind(t);
  const send = t.send.bind(t);
  t.start = () => {
    const inner = t.onmessage!;
    t.onmessage = (m, ...rest) => {
      received.push(m);
      inner(m, ...rest);
    };
    return start();
  };
  t.send = (m, ...rest) => {
    sent.push(m);
    return send(m, ...rest);
  };
  return { sent, received };
}

export interface StdioFlavour {
  label: string;
  connect(): Promise<StdioSession>;
}

function collect(stream: unknown): () => string {
  let text = '';
  (stream as Readable | null)?.on('data', (d: Buffer) => (text += d.toString()));
  return () => text;
}

const CAPS = { capabilities: { sampling: {} } };

export const SDK1_STDIO: StdioFlavour = {
  label: '@modelcontextprotocol/sdk 1.x',
  async connect() {
    const transport = new Stdio1({ ...STDIO_SERVER, env: serverEnv(), stderr: 'pipe' });
    const stderr = collect(transport.stderr);
    const wire = tap(transport);
    const client = new Client1({ name: 'sdk1-stdio-e2e', version: '1.0.0' }, CAPS);
    const errors: string[] = [];
    client.onerror = (e) => errors.push(e.message);
    await client.connect(transport);
    return {
      client: client as unknown as StdioSession['client'],
      ...wire,
      callTool: (params, options) => client.callTool(params, CallToolResultSchema, options) as Promise<ToolResultLike>,
      onSampling: (handler) =>
        client.setRequestHandler(CreateMessageRequestSchema, (req) => handler(req as SamplingRequestLike)),
      onLog: (handler) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => handler(n.params.data)),
      errors,
      stderr,
      pid: () => transport.pid,
      close: () => client.close(),
    };
  },
};

export const SDK2_STDIO: StdioFlavour = {
  label: '@modelcontextprotocol/client 2.x',
  async connect() {
    const transport = new Stdio2({ ...STDIO_SERVER, env: serverEnv(), stderr: 'pipe' });
    const stderr = collect(transport.stderr);
    const wire = tap(transport);
    const client = new Client2({ name: 'sdk2-stdio-e2e', version: '2.0.0' }, CAPS);
    const errors: string[] = [];
    client.onerror = (e) => errors.push(e.message);
    await client.connect(transport);
    return {
      client: client as unknown as StdioSession['client'],
      ...wire,
      callTool: (params, options) => client.callTool(params, options) as Promise<ToolResultLike>,
      onSampling: (handler) =>
        client.setRequestHandler('sampling/createMessage', (req) => handler(req as SamplingRequestLike)),
      onLog: (handler) => client.setNotificationHandler('notifications/message', (n) => handler(n.params.data)),
      errors,
      stderr,
      pid: () => transport.pid,
      close: () => client.close(),
    };
  },
};

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpTestTaskOutcome, runLegacyTask, runModernTask } from './mcp-test-tasks';
import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
} from '@modelcontextprotocol/client';

/** How a {@link McpTestClient} connects and answers the server's requests. */
export interface McpTestClientOptions {
  /** Scopes of the token minted for this client (default: every scope the app declares). */
  scope?: string;
  /** `sub` of the minted token (default `test-user`). */
  sub?: string;
  /** A token to send as is; `null` sends no `Authorization` header. */
  token?: string | null;
  /** Answers `elicitation/create` (the client then declares the `elicitation` capability). */
  elicitation?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Answers `sampling/createMessage` (the client then declares `sampling`). */
  sampling?: (params: CreateMessageRequest['params']) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers `roots/list` with these roots (the client then declares `roots`). */
  roots?: { uri: string; name?: string }[];
  /**
   * The protocol era: `'2025-11-25'` (default: `initialize` and a session) or `'2026-07-28'` (stateless; the
   * handlers above then answer the server's questions through multi round-trip requests). Test both when your
   * server's clients use both.
   */
  protocol?: '2025-11-25' | '2026-07-28';
}

/** One `notifications/progress` a call received. */
export interface McpTestProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** One `notifications/message` (log) the client received. */
export interface McpTestLog {
  level: string;
  logger?: string;
  data: unknown;
}

/**
 * An MCP client for tests, built on the official SDK client (`@modelcontextprotocol/client`) over Streamable
 * HTTP. It records progress and log notifications, answers elicitation, sampling and roots requests with the
 * handlers it was given, and exposes the SDK client as `sdk` for anything else.
 */
export class McpTestClient {
  /** Progress notifications of every call made through {@link callTool}, in arrival order. */
  readonly progress: McpTestProgress[] = [];
  /** Log notifications (`notifications/message`), in arrival order. */
  readonly logs: McpTestLog[] = [];

  private constructor(
    readonly sdk: Client,
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly options: McpTestClientOptions,
  ) {}

  /** Connects to `url` (the server's MCP endpoint) with `token` (or none). */
  static async connect(
    url: string,
    token: string | undefined,
    options: McpTestClientOptions = {},
  ): Promise<McpTestClient> {
    const capabilities: Record<string, object> = {};
    if (options.elicitation) capabilities.elicitation = {};
    if (options.sampling) capabilities.sampling = {};
    if (options.roots) capabilities.roots = {};
    const sdk = new Client(
      { name: 'mcp-testing', version: '1.0.0' },
      {
        capabilities,
        ...(options.protocol === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    const client = new McpTestClient(sdk, url, token, options);
    const { elicitation, sampling, roots } = options;
    if (elicitation) sdk.setRequestHandler('elicitation/create', (req) => elicitation(req.params));
    if (sampling) sdk.setRequestHandler('sampling/createMessage', (req) => sampling(req.params));
    if (roots) sdk.setRequestHandler('roots/list', () => ({ roots }));
    sdk.setNotificationHandler('notifications/message', (n) => {
      client.logs.push({ level: n.params.level, logger: n.params.logger, data: n.params.data });
    });
    const transport = new StreamableHTTPClientTransport(
      new URL(url),
      token ? { authProvider: { token: async () => token } } : {},
    );
    await sdk.connect(transport);
    return client;
  }

  /** `tools/list`, every page. */
  listTools(): ReturnType<Client['listTools']> {
    return this.sdk.listTools();
  }

  /** `tools/call`; progress notifications are recorded in {@link progress}. */
  callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return this.sdk.callTool(
      { name, arguments: args },
      { onprogress: (p) => this.progress.push({ progress: p.progress, total: p.total, message: p.message }) },
    ) as Promise<CallToolResult>;
  }

  /**
   * Calls a task tool as a task and drives it to its end, in the client's era: 2025-11-25 with the tasks utility
   * (`task` on the call, then the blocking `tasks/result`), 2026-07-28 with the tasks extension (the task handle,
   * `tasks/get` polling, `tasks/update` for the task's questions). Questions are answered with the handlers given to
   * `connect` (`elicitation`, `sampling`, `roots`).
   *
   * @example
   * const { status, result } = await client.runTask('export_orders', { month: '2026-10' });
   */
  runTask(name: string, args: Record<string, unknown> = {}): Promise<McpTestTaskOutcome> {
    if (this.options.protocol !== '2026-07-28') return runLegacyTask(this.sdk, name, args);
    const { elicitation, sampling, roots } = this.options;
    const capabilities: Record<string, object> = {};
    if (elicitation) capabilities.elicitation = {};
    if (sampling) capabilities.sampling = {};
    if (roots) capabilities.roots = {};
    const answer = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
      if (method === 'elicitation/create' && elicitation) return elicitation(params as ElicitRequest['params']);
      if (method === 'sampling/createMessage' && sampling)
        return sampling(params as CreateMessageRequest['params']) as Promise<Record<string, unknown>>;
      if (method === 'roots/list' && roots) return { roots };
      throw new Error(`runTask: the task asked ${method}, and no handler for it was given to connect()`);
    };
    return runModernTask(this.url, this.token, capabilities, answer, name, args);
  }

  /** `prompts/list`. */
  listPrompts(): ReturnType<Client['listPrompts']> {
    return this.sdk.listPrompts();
  }

  /** `prompts/get`. */
  getPrompt(name: string, args: Record<string, string> = {}): ReturnType<Client['getPrompt']> {
    return this.sdk.getPrompt({ name, arguments: args });
  }

  /** `resources/list`. */
  listResources(): ReturnType<Client['listResources']> {
    return this.sdk.listResources();
  }

  /** `resources/templates/list`. */
  listResourceTemplates(): ReturnType<Client['listResourceTemplates']> {
    return this.sdk.listResourceTemplates();
  }

  /** `resources/read`. */
  readResource(uri: string): ReturnType<Client['readResource']> {
    return this.sdk.readResource({ uri });
  }

  /** Ends the session (`DELETE`; none in 2026-07-28) and closes the transport. */
  close(): Promise<void> {
    return this.sdk.close();
  }
}

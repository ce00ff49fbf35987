/** JSON Schema as a plain object. */
export type JsonSchema = Record<string, unknown>;
/** A class-validator DTO class. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DtoClass = new (...args: any[]) => object;

/** An icon as in MCP 2025-11-25 `Icon`. */
export interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** MCP tool annotations (hints; clients must not trust them for security). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Corporate risk level (standard §9.3, see docs/compliance.md#s9). */
export type RiskLevel = 'low' | 'medium' | 'high';

/**
 * What a mutating tool changes, and how a caller should treat it (standard §9.3, see docs/compliance.md#s9).
 * Rendered into the tool's `description` and `annotations` at boot.
 */
export interface McpToolMutation {
  risk: RiskLevel;
  /** What the call changes, in one or two sentences. */
  sideEffects: string;
  /** `true` (default) when the change is visible outside this call (records, messages, money). */
  external?: boolean;
  /**
   * The argument that makes a retry safe, or why there is none. Required when `external`. With `replay: true` the
   * platform makes it so (docs/authoring.md#idempotency): the first answer to a call is kept in the configured store
   * and a repeat from the same caller with the same key is answered with it, on any replica, without running the
   * method again (marked `_meta["corporate/idempotent-replay"]: true`). The key must then be a required argument.
   */
  idempotency?: { key: string; replay?: boolean } | { none: string };
  /** When and how a caller may retry. Required when `external`. */
  retry?: string;
  /** Who must approve, or `'not required'`. Required when `external`. */
  approval?: string;
  /** The audit event name; defaults to `<service>.tool.<name>`. */
  audit?: string;
  /** What happens on timeout; defaults to a sentence derived from the timeout. */
  timeoutBehavior?: string;
}

/** Options of {@link McpTool}. */
export interface McpToolOptions {
  /** `^[a-z][a-z0-9_]{1,63}$`; defaults to the method name in snake_case. */
  name?: string;
  title?: string;
  description: string;
  /** Arguments: a class-validator DTO class or a raw JSON Schema object. Omitted: no arguments. */
  input?: DtoClass | JsonSchema;
  /** Structured result: a DTO class or a raw JSON Schema object. */
  output?: DtoClass | JsonSchema;
  annotations?: McpToolAnnotations;
  /** Required on every tool that is not `annotations.readOnlyHint: true`. */
  mutation?: McpToolMutation;
  icons?: McpIcon[];
  /** Per-call timeout in milliseconds; default `limits.toolTimeoutMs` (30 s). */
  timeoutMs?: number;
  /** Tighter limits for this tool, on top of the per-caller ones: calls per minute and at once, per caller. */
  rateLimit?: { callsPerMinute?: number; maxConcurrent?: number };
  /**
   * Long-running work: the call may answer with a task handle and run on the task queue (docs/tasks.md).
   * `'optional'`: a client that handles tasks gets one, any other the result in the call; `'required'`: only as a
   * task. Default: never a task.
   */
  task?: McpToolTaskSupport | McpToolTaskOptions;
  /** MCP Apps (docs/apps.md): the `@McpApp` view that renders this tool's results, and who may call the tool. */
  ui?: McpToolUi;
  _meta?: Record<string, unknown>;
}

/** A tool's link to an MCP Apps view, listed as `_meta.ui` (docs/apps.md#linking-a-tool). */
export interface McpToolUi {
  /** The `ui://` URI of an `@McpApp` view of this server. */
  resourceUri: string;
  /** `'model'`: the agent may call it; `'app'`: the view may. Default (as the extension says): both. */
  visibility?: ('model' | 'app')[];
}

/** Whether a tool runs as a task: `'optional'` (when the client handles tasks) or `'required'` (only as a task). */
export type McpToolTaskSupport = 'optional' | 'required';

/** A task tool's settings; every one but `support` has a module-wide default (`tasks` options). */
export interface McpToolTaskOptions {
  support: McpToolTaskSupport;
  /**
   * The method asks its questions first and calls `ctx.startTask()` before the work: the questions are answered in
   * the request (multi round-trip requests, or server requests to a 2025 session), the work runs as the task.
   */
  asksFirst?: boolean;
  /** How long the task and its result are kept after creation; default `tasks.ttlMs`, at most `tasks.maxTtlMs`. */
  ttlMs?: number;
  /** Gives up on a run after this many ms (the task fails with `-32004`); default `tasks.timeoutMs`. */
  timeoutMs?: number;
}

/** One prompt argument as listed in `prompts/list`. */
export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** Options of {@link McpPrompt}. */
export interface McpPromptOptions {
  name?: string;
  title?: string;
  description: string;
  arguments?: McpPromptArgument[];
  icons?: McpIcon[];
  _meta?: Record<string, unknown>;
}

/** Options of {@link McpResource}. */
export interface McpResourceOptions {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  size?: number;
  icons?: McpIcon[];
  annotations?: { audience?: ('user' | 'assistant')[]; priority?: number; lastModified?: string };
  _meta?: Record<string, unknown>;
}

/** Origins an MCP Apps view may reach; the host builds the view's Content Security Policy from them. */
export interface McpAppCsp {
  /** fetch/XHR/WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, images, styles, fonts, media (`script-src`, `img-src`, ...). */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** The document's base URIs (`base-uri`). */
  baseUriDomains?: string[];
  /** WebAssembly compilation (`'wasm-unsafe-eval'`). */
  wasmUnsafeEval?: boolean;
}

/**
 * Options of {@link McpApp}: an MCP Apps view (extension `io.modelcontextprotocol/ui`, docs/apps.md). It is served
 * as a resource with mimeType `text/html;profile=mcp-app`; `csp`, `permissions`, `domain` and `prefersBorder` are its
 * `_meta.ui`.
 */
export interface McpAppOptions {
  /** `ui://...` */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  icons?: McpIcon[];
  /** Omitted: the host allows no external origin at all. */
  csp?: McpAppCsp;
  /** Browser features the view asks the host for (an iframe `allow` attribute). */
  permissions?: { camera?: object; microphone?: object; geolocation?: object; clipboardWrite?: object };
  /** A dedicated sandbox origin; its format is the host's. */
  domain?: string;
  /** Whether the host draws a border and background around the view. */
  prefersBorder?: boolean;
  /**
   * A view built by `npm run build` from `<app>/views/<view>/` (index.html + main.ts, bundled into one document):
   * the HTML served is `<views.root>/<view>.html`, read once at boot. The method still runs on every read, through
   * the pipeline, and what it returns is not used (as under Nest's `@Render`). Without `view`, the method returns
   * the HTML.
   */
  view?: string;
  _meta?: Record<string, unknown>;
}

/** Options of {@link McpResourceTemplate}. */
export interface McpResourceTemplateOptions {
  /** RFC 6570 URI template, e.g. `orders://orders/{id}`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  icons?: McpIcon[];
  annotations?: { audience?: ('user' | 'assistant')[]; priority?: number };
  _meta?: Record<string, unknown>;
}

/** What {@link McpCompletion} completes: a prompt argument or a template variable. */
export type McpCompletionOptions =
  { prompt: string; argument: string } | { resourceTemplate: string; argument: string };

/**
 * What an {@link McpSkill} method returns: the skill's files by their path inside the skill's folder (`SKILL.md`,
 * `references/severity.md`), each as UTF-8 text or bytes. `SKILL.md` is required; folders follow from the paths.
 */
export type McpSkillFiles = Readonly<Record<string, string | Uint8Array>>;

/** Options of {@link McpSkill}. */
export interface McpSkillOptions {
  /**
   * The skill's folder under `skill://` (`support/refund-order`): an organising prefix, then a last segment equal to
   * the frontmatter's `name`. Default: the frontmatter's `name`.
   */
  path?: string;
}

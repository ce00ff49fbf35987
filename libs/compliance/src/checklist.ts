import { ChecklistItem, Level, StandardVersion } from './compliance.types';

const BOTH: StandardVersion[] = ['1.2', '2.0'];
const V12: StandardVersion[] = ['1.2'];
const V20: StandardVersion[] = ['2.0'];

const item = (
  id: string,
  standards: StandardVersion[],
  section: string,
  level: Level,
  requires: string,
): ChecklistItem => ({ id, standards, section, level, requires });

const SPEC = 'Specification conformance';
const HTTP = 'Transport and HTTP';
const AUTH = 'Authentication';
const LIFE = 'MCP lifecycle and methods';
const TOOLS = 'Tools';
const PR = 'Prompts and resources';
const ERR = 'Errors and limits';
const OBS = 'Observability';
const DOC = 'Documentation and contract';
/** Items this tool adds beyond the standard's checklists: the official MCP extensions a server declares. */
export const EXTENSIONS_SECTION = 'MCP extensions (beyond the standard)';

/**
 * Every item of the §18 compliance checklists (docs/compliance.md#s18) of both versions of the corporate standard, in
 * our words, then the items this tool adds for the official MCP extensions a server declares
 * ({@link EXTENSIONS_SECTION}). An item both versions ask for has one id and both versions; the compliance matrix
 * (docs/compliance.md#s18) says where the platform meets each and which test proves it.
 */
export const CHECKLIST: readonly ChecklistItem[] = [
  item('spec.conformance', V20, SPEC, 'MUST', 'conforms to MCP 2026-07-28 (the official conformance suite)'),
  item('spec.discover', V20, SPEC, 'MUST', '`server/discover` lists the supported versions and the capabilities'),
  item(
    'spec.headers',
    V20,
    SPEC,
    'MUST',
    '`MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` are checked against the body',
  ),
  item(
    'spec.unknown-method',
    V20,
    SPEC,
    'MUST',
    'an unknown method is `-32601`; an unsupported version `-32022` with the supported list',
  ),
  item(
    'spec.result-type',
    V20,
    SPEC,
    'MUST',
    'every result has `resultType`; catalogue and read results have `ttlMs` and `cacheScope`',
  ),
  item(
    'spec.legacy-clients',
    V20,
    SPEC,
    'MUST',
    'older clients are served (Annex D), or the README says the server is modern-only and why',
  ),
  item(
    'http.transport',
    BOTH,
    HTTP,
    'MUST',
    'at least one transport: stdio or Streamable HTTP (v1.2 also allows HTTP+SSE)',
  ),
  item('http.post-mcp', V12, HTTP, 'MUST', '`POST /mcp` is the Streamable HTTP endpoint'),
  item('http.accept', V12, HTTP, 'MUST', '`POST /mcp` accepts `Accept: application/json, text/event-stream`'),
  item('http.protocol-version', V12, HTTP, 'MUST', '`MCP-Protocol-Version` is honoured after `initialize`'),
  item('http.session-id', V12, HTTP, 'MUST', 'sessions, where used, are carried by `MCP-Session-Id`'),
  item('http.health', BOTH, HTTP, 'MUST', '`GET /health` answers'),
  item('http.cors', V12, HTTP, 'MUST', 'CORS is configured explicitly, never `*` in production'),
  item('http.origin', V12, HTTP, 'MUST', '`Origin` is validated: a foreign one gets 403'),
  item('http.cors-origin', V20, HTTP, 'MUST', 'CORS is explicit, never `*` in production; a foreign `Origin` gets 403'),
  item('http.payload-documented', BOTH, HTTP, 'MUST', 'the largest accepted payload is documented'),
  item('auth.required', BOTH, AUTH, 'MUST', '`tools/call` over HTTP needs authentication'),
  item('auth.bearer', BOTH, AUTH, 'MUST', '`Authorization: Bearer <token>` is accepted'),
  item('auth.jwt', BOTH, AUTH, 'MUST', 'JWTs are checked for issuer, audience and expiry'),
  item('auth.www-authenticate', BOTH, AUTH, 'MUST', 'a 401 carries a `WWW-Authenticate: Bearer` challenge'),
  item(
    'auth.discovery',
    BOTH,
    AUTH,
    'SHOULD',
    'OAuth discovery is described for generic clients, or the server is marked internal-only',
  ),
  item('auth.no-passthrough', BOTH, AUTH, 'MUST', 'the caller’s token is never passed on to other services'),
  item('auth.no-secrets', BOTH, AUTH, 'MUST', 'secrets are not taken from the query string nor written to logs'),
  item(
    'life.initialize',
    V12,
    LIFE,
    'MUST',
    '`initialize` answers with the protocol version, capabilities and `serverInfo`',
  ),
  item('life.initialized', V12, LIFE, 'MUST', '`notifications/initialized` is accepted'),
  item('life.negotiated', V12, LIFE, 'MUST', 'only negotiated capabilities are used'),
  item('life.tools', V12, LIFE, 'MUST', '`tools/list` and `tools/call` work when `tools` is declared'),
  item('life.prompts', V12, LIFE, 'MUST', '`prompts/list` and `prompts/get` work when `prompts` is declared'),
  item('life.resources', V12, LIFE, 'MUST', '`resources/list` and `resources/read` work when `resources` is declared'),
  item('life.unknown-method', V12, LIFE, 'MUST', 'an unknown method is `-32601`'),
  item('tools.fields', BOTH, TOOLS, 'MUST', 'every tool has `name`, `description` and `inputSchema`'),
  item('tools.names', BOTH, TOOLS, 'MUST', 'tool names are snake_case English'),
  item('tools.schema-draft', BOTH, TOOLS, 'MUST', '`inputSchema` is JSON Schema 2020-12 or names its `$schema`'),
  item(
    'tools.arguments',
    BOTH,
    TOOLS,
    'MUST',
    'arguments are validated (v2.0: violations as `isError` results naming the fields)',
  ),
  item('tools.side-effects', BOTH, TOOLS, 'MUST', 'mutating tools state their side effects and risk level'),
  item(
    'tools.external-effects',
    BOTH,
    TOOLS,
    'MUST',
    'tools with external side effects document idempotency, retry, timeout, audit and approval',
  ),
  item('tools.is-error', V12, TOOLS, 'SHOULD', 'business errors come back as `result.isError=true`'),
  item(
    'tools.deterministic',
    BOTH,
    TOOLS,
    'MUST',
    'results have a deterministic format (v2.0: and `tools/list` a stable order)',
  ),
  item('prompts.capability', BOTH, PR, 'MUST', 'prompts are declared only with the `prompts` capability'),
  item(
    'prompts.agent',
    BOTH,
    PR,
    'SHOULD',
    '`agent_brief` and `agent_prompt` are published, or the README says why not',
  ),
  item('prompts.arguments', BOTH, PR, 'MUST', 'prompt arguments use MCP `arguments[]`, never an `inputSchema`'),
  item(
    'resources.http-headers',
    BOTH,
    PR,
    'MUST',
    '`use://http-headers` is published when the server takes non-standard headers',
  ),
  item(
    'resources.schemes',
    BOTH,
    PR,
    'MUST',
    'resource URIs use the service’s name or `use://`, `project://`, `doc://`',
  ),
  item(
    'resources.read-shape',
    V12,
    PR,
    'MUST',
    '`resources/read` returns `contents[]` with `uri`, `mimeType`, `text` or `blob`',
  ),
  item('resources.capabilities', V12, PR, 'MUST', 'templates and subscriptions only with their capabilities'),
  item(
    'errors.format',
    BOTH,
    ERR,
    'MUST',
    'protocol errors in JSON-RPC form (v2.0: and tool errors as `isError=true`)',
  ),
  item('errors.is-error', V12, ERR, 'MUST', 'tool execution errors come back as `isError=true`'),
  item('errors.codes', BOTH, ERR, 'MUST', 'error codes from Appendix B (v2.0: never `-32002` in 2026-07-28)'),
  item('errors.limits', BOTH, ERR, 'MUST', 'timeout, rate limit and payload limit implemented and documented'),
  item('errors.no-leaks', BOTH, ERR, 'MUST', 'errors carry no stack trace and no secret'),
  item('obs.request-id', BOTH, OBS, 'MUST', '`X-Request-Id` is supported'),
  item('obs.traceparent', BOTH, OBS, 'SHOULD', '`traceparent` is accepted (v2.0: in the header and in `_meta`)'),
  item('obs.structured-logs', V12, OBS, 'MUST', 'calls are logged in a structured form'),
  item('obs.no-tokens-in-logs', V12, OBS, 'MUST', 'logs hold no tokens and no unmasked personal data'),
  item('obs.logs', V20, OBS, 'MUST', 'calls are logged in a structured form, without tokens or unmasked personal data'),
  item('doc.readme', BOTH, DOC, 'MUST', 'a README describes the public contract'),
  item('doc.changelog', BOTH, DOC, 'MUST', 'a CHANGELOG.md'),
  item('doc.semver', BOTH, DOC, 'MUST', 'versions follow semver'),
  item('doc.version', BOTH, DOC, 'MUST', 'the version in `/health` and in `serverInfo` (v2.0: its `_meta`)'),
  item(
    'doc.project-version',
    BOTH,
    DOC,
    'SHOULD',
    '`project://version` is served, or said to be optional for the server',
  ),
  item(
    'ext.skills',
    BOTH,
    EXTENSIONS_SECTION,
    'MUST',
    'when the Skills extension is declared: `skills/list` answers complete manifests, and each listed `SKILL.md` reads back with its digest and size',
  ),
];

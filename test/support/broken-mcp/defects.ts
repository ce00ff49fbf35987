/**
 * The defects a broken server can be given, each breaking one §18 item (or the few that say the same thing), so
 * that every compliance check is seen to fail with its own evidence.
 */
export interface Defects {
  /** `serverInfo.version` is not semver ("v1"). */
  badVersion?: boolean;
  /** `/health` states another version than `serverInfo`. */
  healthVersionDiffers?: boolean;
  /** A 401 without `WWW-Authenticate`. */
  noChallenge?: boolean;
  /** An unknown method answers `-32600` instead of `-32601` (both eras). */
  wrongUnknownMethodCode?: boolean;
  /** A tool named in camelCase. */
  camelCaseTool?: boolean;
  /** A tool without a description. */
  toolWithoutDescription?: boolean;
  /** `X-Request-Id` is not returned. */
  noRequestId?: boolean;
  /** A malformed body is answered with the parser's stack trace. */
  stackTrace?: boolean;
  /** JWTs are taken after they expired. */
  ignoresExpiry?: boolean;
  /** JWTs for another audience are taken. */
  ignoresAudience?: boolean;
  /** A token in the query string (`?access_token=`) is taken. */
  queryToken?: boolean;
  /** Any `Origin` is taken and answered `Access-Control-Allow-Origin: *`. */
  corsWildcard?: boolean;
  /** A wrong argument's error does not name the field. */
  validationWithoutField?: boolean;
  /** A wrong argument is a `-32602` error in 2026-07-28 too, not an `isError` result. */
  validationAsRpcError?: boolean;
  /** The second read-only tool (`list_incidents`, after the first) runs with an argument of the wrong type. */
  secondToolUnvalidated?: boolean;
  /** `tools/list` answers in another order each time. */
  unstableToolOrder?: boolean;
  /** The mutating tool's description says nothing of its side effects. */
  sideEffectsUndocumented?: boolean;
  /** The tool with external effects does not say whether it is audited. */
  noAuditNote?: boolean;
  /** Prompts are served without the `prompts` capability. */
  promptsWithoutCapability?: boolean;
  /** A prompt publishes an `inputSchema`. */
  promptWithInputSchema?: boolean;
  /** No `agent_brief` / `agent_prompt`. */
  noAgentPrompts?: boolean;
  /** A resource under a scheme that is neither the service's nor a corporate one. */
  foreignScheme?: boolean;
  /** `resources/read` contents without `mimeType`. */
  readWithoutMimeType?: boolean;
  /** `resources/subscribe` answered without the `subscribe` capability. */
  subscribeUndeclared?: boolean;
  /** No `use://http-headers`, though the README asks for `X-Tenant-Id`. */
  noHttpHeadersResource?: boolean;
  /** No `project://version` resource. */
  noProjectVersion?: boolean;
  /** 2026-07-28 requests whose headers contradict the body are served. */
  headerMismatchTaken?: boolean;
  /** 2026-07-28 results without `resultType`. */
  noResultType?: boolean;
  /** An unsupported protocol version is `-32600` instead of `-32022`. */
  unsupportedVersionCode?: boolean;
  /** A missing resource is `-32002` in 2026-07-28 too. */
  legacyNotFoundInModern?: boolean;
  /** Only 2026-07-28: `initialize` is refused. */
  modernOnly?: boolean;
  /** Requests of any size are read. */
  noPayloadLimit?: boolean;
  /** No OAuth protected-resource metadata. */
  noProtectedResourceMetadata?: boolean;
  /** A request with `traceparent` is refused. */
  traceparentRejected?: boolean;
  /** `initialize` answers without `serverInfo.version`. */
  initializeWithoutVersion?: boolean;
  /** No `GET /health`. */
  noHealth?: boolean;
  /** A wrong `MCP-Protocol-Version` in the 2025 session is taken. */
  ignoresProtocolVersionHeader?: boolean;
  /** Answers are sent as `text/plain`, which the client did not accept. */
  textPlainAnswers?: boolean;
  /** `tools/call` is served without a token. */
  anonymousToolCalls?: boolean;
  /** `notifications/initialized` is refused. */
  initializedRefused?: boolean;
  /** An unknown tool, prompt or resource is "method not found". */
  unknownNameAsMethodNotFound?: boolean;
  /** A tool's `$schema` is not a string. */
  schemaDraftNotString?: boolean;
  /** A wrong argument is an internal error (`-32603`). */
  validationAsInternalError?: boolean;
  /** The skill `skills/list` lists cannot be read (`resources/read` of its SKILL.md answers "not found"). */
  skillUnreadable?: boolean;
}

/** What the service page shows, built from the options, the auth config and the registry. @internal */
export interface ServicePageModel {
  name: string;
  title?: string;
  version: string;
  description?: string;
  instructions?: string;
  /** Path of the Streamable HTTP endpoint the console calls. */
  mcpPath: string;
  /** Protocol revision the console asks for in `initialize`. */
  protocolVersion: string;
  /** Every revision the server speaks, by era (`stateless`: 2026-07-28; `sessions`: the 2025 era), newest first. */
  protocols: { era: string; versions: readonly string[] }[];
  endpoints: EndpointView[];
  auth: AuthView;
  tools: ToolView[];
  prompts: PromptView[];
  resources: ResourceView[];
  templates: ResourceView[];
  skills: SkillView[];
}

/** @internal */
export interface EndpointView {
  method: string;
  path: string;
  description: string;
}

/** @internal */
export interface AuthView {
  /** `Bearer JWT`, `Bearer (opaque, introspected)` or `none`. */
  scheme: string;
  /** Label and value pairs: issuer, audience, JWKS, algorithms... */
  details: [string, string][];
  /** How a developer gets a token, when the local development issuer is running. */
  hint?: string;
  /** Every scope some entry requires. */
  scopes: string[];
}

/** Corporate risk level of a tool; `unspecified` only for entries built outside the decorators. @internal */
export type RiskLevel = 'read-only' | 'low' | 'medium' | 'high' | 'unspecified';

/** @internal */
export interface ToolView {
  name: string;
  title?: string;
  /** The team's description, without the safety text the registry appends. */
  description: string;
  risk: RiskLevel;
  sideEffects?: string;
  approval?: string;
  scopes: string[];
  /** Prefill of the console's arguments field (JSON). */
  example: string;
}

/** @internal */
export interface PromptView {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; required: boolean; description?: string }[];
  scopes: string[];
}

/** A resource (`uri`) or a resource template (`uriTemplate`), both shown by their URI. @internal */
export interface ResourceView {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  scopes: string[];
}

/** A skill (extension `io.modelcontextprotocol/skills`), folder or computed: its frontmatter and manifest. @internal */
export interface SkillView {
  /** The URI of its SKILL.md. */
  uri: string;
  name: string;
  description: string;
  /** How many files its manifest lists, SKILL.md included. */
  files: number;
  scopes: string[];
}

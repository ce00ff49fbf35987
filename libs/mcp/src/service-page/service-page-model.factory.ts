import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../wire/protocol-version';
import { McpRegistry } from '../registry/mcp.registry';
import { authView } from './auth-view.factory';
import { endpointList } from './endpoint-list.factory';
import { PromptView, ResourceView, ServicePageModel, SkillView } from './service-page.model';
import { toolView } from './tool-view.factory';

type Catalogue = Pick<McpRegistry, 'tools' | 'prompts' | 'resources' | 'templates' | 'skills'>;
type Definition = Record<string, unknown>;

/** Everything the page shows, read from the registry as it is now. @internal */
export function servicePageModel(
  options: ResolvedMcpOptions,
  auth: ResolvedAuthConfig,
  registry: Catalogue,
): ServicePageModel {
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  const entries = [
    ...registry.tools.values(),
    ...registry.prompts.values(),
    ...registry.resources.values(),
    ...registry.templates.values(),
  ];
  const scopes = [
    ...new Set([...entries.flatMap((e) => [...(e.requiredScopes ?? [])]), ...registry.skills.requiredScopes()]),
  ].sort();
  return {
    name: options.name,
    title: options.title,
    version: options.version,
    description: options.description,
    instructions: options.instructions,
    mcpPath: options.path,
    protocolVersion: LATEST_PROTOCOL_VERSION,
    // Every server speaks both eras: the page says so rather than naming the console's revision alone.
    protocols: [
      { era: 'stateless', versions: [...MODERN_PROTOCOL_VERSIONS] },
      { era: 'sessions', versions: [...SUPPORTED_PROTOCOL_VERSIONS] },
    ],
    endpoints: endpointList(options),
    auth: authView(auth, scopes),
    tools: [...registry.tools.values()].map(toolView).sort(byName),
    prompts: [...registry.prompts.values()].map((e) => promptView(e.definition, e.requiredScopes)).sort(byName),
    resources: [...registry.resources.values()]
      .map((e) => resourceView(e.definition, 'uri', e.requiredScopes))
      .sort(byUri),
    templates: [...registry.templates.values()]
      .map((e) => resourceView(e.definition, 'uriTemplate', e.requiredScopes))
      .sort(byUri),
    skills: skillViews(registry.skills),
  };
}

function promptView(d: Definition, scopes: readonly string[] = []): PromptView {
  const args = Array.isArray(d.arguments) ? (d.arguments as Definition[]) : [];
  return {
    name: String(d.name),
    title: str(d.title),
    description: str(d.description),
    arguments: args.map((a) => ({
      name: String(a.name),
      required: a.required === true,
      description: str(a.description),
    })),
    scopes: [...scopes].sort(),
  };
}

function resourceView(d: Definition, key: 'uri' | 'uriTemplate', scopes: readonly string[] = []): ResourceView {
  return {
    uri: String(d[key]),
    name: String(d.name),
    title: str(d.title),
    description: str(d.description),
    mimeType: str(d.mimeType),
    scopes: [...scopes].sort(),
  };
}

/** Every skill, hidden ones included with their scopes (the page shows the catalogue, docs/service-page.md). */
function skillViews(skills: Catalogue['skills']): SkillView[] {
  return skills.skills.map((s) => ({
    uri: s.uri,
    name: String(s.frontmatter.name),
    description: String(s.frontmatter.description),
    files: s.resources.length,
    scopes: [...skills.scopesOf(s.uri)],
  }));
}

const byUri = (a: ResourceView, b: ResourceView) => a.uri.localeCompare(b.uri);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

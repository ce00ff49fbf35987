import { Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ListPager } from './list-pager';
import { ListKind, projectDefinition } from '../wire/era-projection';
import { ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { McpPromptOptions, McpResourceOptions } from '../decorators/decorator-options.interface';
import { McpCallContext } from '../context/call-context.interface';
import { RegistryViolations } from './registry-rules';
import { buildResourceEntry } from './resource-entry.factory';
import { buildPromptEntry } from './prompt-entry.factory';
import { McpPrincipal } from '../auth/mcp-principal';
import { hasScopes } from '../auth/scopes';
import { ScopeCheck, SkillCatalog } from '../skills/skill-catalog';
import { loadSkills } from '../skills/skills.loader';
import {
  CompletionHandler,
  McpHandler,
  Scoped,
  PromptEntry,
  ResourceEntry,
  ResourceTemplateEntry,
  ToolEntry,
} from './registry-entries';

/** Which list changed, for `notifications/<kind>/list_changed`. */
export type McpListKind = 'tools' | 'prompts' | 'resources';

/**
 * The compiled catalogue: every tool, prompt, resource and template with its validators and its
 * pipeline-wrapped handler, looked up by Map. Lists are serialised once and re-serialised only
 * after a change.
 */
@Injectable()
export class McpRegistry {
  // The maps are the platform's own; teams see read-only views and change the catalogue through methods.
  private readonly toolMap = new Map<string, ToolEntry>();
  private readonly promptMap = new Map<string, PromptEntry>();
  private readonly resourceMap = new Map<string, ResourceEntry>();
  private readonly templateMap = new Map<string, ResourceTemplateEntry>();
  private readonly completionMap = new Map<string, CompletionHandler>();
  private readonly pagers = new Map<string, ListPager>();
  private readonly listeners: ((kind: McpListKind) => void)[] = [];

  private readonly skillPagers = new Map<string, ListPager>();
  private skillCatalog: SkillCatalog;

  constructor(@Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions) {
    this.skillCatalog = options.skills
      ? loadSkills(options.skills.root, { scopes: options.skills.scopes })
      : SkillCatalog.EMPTY;
  }

  /**
   * The skills served (docs/skills.md): the skills folder's, read when the registry is built, and the `@McpSkill`
   * methods', added by discovery at boot. Fixed afterwards; a problem refuses the boot. @internal
   */
  get skills(): SkillCatalog {
    return this.skillCatalog;
  }

  /** Serves `catalog` (the folder's skills and the computed ones): at boot, before any list is served. @internal */
  useSkills(catalog: SkillCatalog): void {
    this.skillCatalog = catalog;
    this.skillPagers.clear();
    this.scopeCache = undefined;
    for (const [key, pager] of this.pagers) if (key.startsWith('resources@')) pager.invalidate();
  }

  /** Which skills a caller may see: all without a principal (stdio, auth off), else those whose scopes it holds. */
  static skillAccess(principal: McpPrincipal | undefined): ScopeCheck {
    return (required) => !principal || hasScopes(principal, required);
  }

  /** Each visible skill's SKILL.md as a resource (named and described by its frontmatter); not its other files. */
  private skillResources(may: ScopeCheck): Record<string, unknown>[] {
    return this.skills.visibleSkills(may).map((s) => ({
      uri: s.uri,
      name: s.frontmatter.name,
      description: s.frontmatter.description,
      mimeType: 'text/markdown',
    }));
  }

  /** One page of `skills/list`, serialised once: whole entries, a manifest never split across pages. @internal */
  skillPage(cursor: unknown, principal?: McpPrincipal): string {
    const visible = this.visibleScopes(principal);
    const key = visible ? visible.join(' ') : '*';
    let pager = this.skillPagers.get(key);
    if (!pager) {
      const skills = this.skills.visibleSkills(allowedBy(visible)) as unknown as Record<string, unknown>[];
      pager = new ListPager('skills', this.options.pageSize, () => skills);
      this.skillPagers.set(key, pager);
    }
    return pager.page(cursor);
  }

  /** The scopes in use that the caller holds; undefined when it may see everything. */
  private visibleScopes(principal: McpPrincipal | undefined): string[] | undefined {
    return principal && !principal.allScopes
      ? [...this.scopesInUse()].filter((s) => principal.scopes.has(s)).sort()
      : undefined;
  }

  /** Tools by name. @internal */
  get tools(): ReadonlyMap<string, ToolEntry> {
    return this.toolMap;
  }
  /** Prompts by name. @internal */
  get prompts(): ReadonlyMap<string, PromptEntry> {
    return this.promptMap;
  }
  /** Fixed resources by URI. @internal */
  get resources(): ReadonlyMap<string, ResourceEntry> {
    return this.resourceMap;
  }
  /** Resource templates by URI template. @internal */
  get templates(): ReadonlyMap<string, ResourceTemplateEntry> {
    return this.templateMap;
  }
  /** Completion providers by {@link McpRegistry.completionKey}. @internal */
  get completions(): ReadonlyMap<string, CompletionHandler> {
    return this.completionMap;
  }

  /** Adds what discovery compiled at boot (before any list is served). @internal */
  registerTool(entry: ToolEntry): void {
    this.toolMap.set(entry.name, entry);
  }
  /** @internal */
  registerPrompt(entry: PromptEntry): void {
    this.promptMap.set(entry.name, entry);
  }
  /** @internal */
  registerResource(entry: ResourceEntry): void {
    this.resourceMap.set(entry.uri, entry);
  }
  /** @internal */
  registerTemplate(entry: ResourceTemplateEntry): void {
    this.templateMap.set(entry.uriTemplate, entry);
  }
  /** @internal */
  registerCompletion(key: string, handler: CompletionHandler): void {
    this.completionMap.set(key, handler);
  }

  /**
   * One page of a list, serialised for a client on `version` (built on first use, then reused).
   * @internal
   */
  page(kind: ListKind, version: ProtocolVersion, cursor: unknown, principal?: McpPrincipal): string {
    // Callers see what they may use: one set of pages per distinct set of relevant scopes.
    const visible = this.visibleScopes(principal);
    const key = `${kind}@${version}${visible ? `#${visible.join(' ')}` : ''}`;
    let pager = this.pagers.get(key);
    if (!pager) {
      const source = {
        tools: this.tools,
        prompts: this.prompts,
        resources: this.resources,
        resourceTemplates: this.templates,
      }[kind];
      const may = allowedBy(visible);
      const allowed = (e: Scoped) => may(e.requiredScopes ?? []);
      // 2026-07-28 lists are in a stable order (by name, or URI for resources) so clients and LLM prompt caches hit;
      // 2025 lists keep registration order, as they always had.
      const sortKey = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
      const stable = eraFeatures(version).modern;
      pager = new ListPager(kind, this.options.pageSize, () => {
        const defs = [...(source as ReadonlyMap<string, Scoped & { definition: Record<string, unknown> }>).values()]
          .filter(allowed)
          .map((e) => projectDefinition(kind, e.definition, version));
        if (kind === 'resources') defs.push(...this.skillResources(may));
        if (stable) defs.sort((a, b) => compare(String(a[sortKey]), String(b[sortKey])));
        return defs;
      });
      this.pagers.set(key, pager);
    }
    return pager.page(cursor);
  }

  /** Every scope a tool, prompt, resource or skill requires, sorted (the testing kit mints tokens with them). */
  declaredScopes(): string[] {
    return [...this.scopesInUse()].sort();
  }

  private scopeCache: Set<string> | undefined;
  /** Every scope some entry requires (computed once; entries added at run time carry none). */
  private scopesInUse(): Set<string> {
    if (this.scopeCache) return this.scopeCache;
    const all = [
      ...this.tools.values(),
      ...this.prompts.values(),
      ...this.resources.values(),
      ...this.templates.values(),
    ];
    const scopes = [...all.flatMap((e) => [...(e.requiredScopes ?? [])]), ...this.skills.requiredScopes()];
    return (this.scopeCache = new Set(scopes));
  }

  /** Key of a completion provider. @internal */
  static completionKey(kind: 'prompt' | 'template', ref: string, argument: string): string {
    return `${kind}\u0000${ref}\u0000${argument}`;
  }

  /**
   * Publishes a resource at run time (for example one per open record) and tells connected clients
   * that the resource list changed. The same URI rules as for `@McpResource` apply; the `read`
   * function is called directly, without Nest's pipeline.
   *
   * @example registry.addResource({ uri: 'orders://reports/q3', name: 'q3', mimeType: 'text/csv' }, () => csv);
   */
  addResource(
    options: McpResourceOptions,
    read: (ctx: McpCallContext) => unknown,
    requiredScopes: string[] = [],
  ): void {
    const violations = new RegistryViolations();
    const handler: McpHandler = async (_args, ctx) => read(ctx);
    const entry = buildResourceEntry(
      options,
      { className: 'McpRegistry', methodName: 'addResource' },
      handler,
      this.options.name,
      violations,
    );
    violations.throwIfAny();
    this.resourceMap.set(entry!.uri, { ...entry!, requiredScopes });
    this.scopeCache = undefined;
    this.changed('resources');
  }

  /** Withdraws a resource published at run time. */
  removeResource(uri: string): boolean {
    const removed = this.resourceMap.delete(uri);
    if (removed) this.changed('resources');
    return removed;
  }

  /**
   * Publishes a prompt at run time and tells connected clients that the prompt list changed. The
   * same name and argument rules as for `@McpPrompt` apply, and a prompt of the same name is
   * replaced (as `addResource` replaces a URI); `get` is called directly, without Nest's pipeline,
   * with the checked string arguments, and may return a string (one user message) or messages.
   *
   * @example registry.addPrompt({ name: 'release_notes', description: 'Notes of this release.' }, () => notes);
   */
  addPrompt(
    options: McpPromptOptions & { name: string },
    get: (args: Record<string, string>, ctx: McpCallContext) => unknown,
    requiredScopes: string[] = [],
  ): void {
    const violations = new RegistryViolations();
    const handler: McpHandler = async (args, ctx) => get(args as Record<string, string>, ctx);
    const entry = buildPromptEntry(options, { className: 'McpRegistry', methodName: 'addPrompt' }, handler, violations);
    violations.throwIfAny();
    this.promptMap.set(entry!.name, { ...entry!, requiredScopes });
    this.scopeCache = undefined;
    this.changed('prompts');
  }

  /** Withdraws a prompt published at run time. */
  removePrompt(name: string): boolean {
    const removed = this.promptMap.delete(name);
    if (removed) this.changed('prompts');
    return removed;
  }

  /** Rebuilds a list's pages and tells connected clients (`list_changed`). */
  changed(kind: McpListKind): void {
    for (const [key, pager] of this.pagers) if (key.startsWith(`${kind}@`)) pager.invalidate();
    for (const listener of this.listeners) listener(kind);
  }

  /** @internal */
  onListChanged(listener: (kind: McpListKind) => void): void {
    this.listeners.push(listener);
  }
}

/** Whether a caller holding the `visible` scopes (all when undefined) may use what requires `required`. */
const allowedBy =
  (visible: readonly string[] | undefined): ScopeCheck =>
  (required) =>
    !visible || required.every((s) => visible.includes(s));

/** Code-unit order: the same on every replica and in every locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

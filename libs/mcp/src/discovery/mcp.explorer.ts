import { Inject, Injectable, Logger, OnModuleInit, Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { MCP_MODULE_OPTIONS, MCP_SCOPES_METADATA } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import { RegistryViolations } from '../registry/registry-rules';
import { checkPlaceholders, serverPlaceholderWarning } from '../registry/placeholder-rules';
import { SchemaCompiler } from '../registry/schema-compiler';
import { buildToolEntry } from '../registry/tool-entry.factory';
import { buildResourceEntry, buildTemplateEntry } from '../registry/resource-entry.factory';
import { buildPromptEntry } from '../registry/prompt-entry.factory';
import { buildAppEntry, staticHtml } from '../registry/app-entry.factory';
import { loadBuiltView } from '../registry/built-view.loader';
import { checkApps } from '../registry/app-rules';
import { CompletionHandler, McpHandler } from '../registry/registry-entries';
import { McpMetadataAccessor, McpMethod } from './mcp-metadata.accessor';
import { McpPipelineFactory } from '../pipeline/mcp-pipeline.factory';
import { SkillMethod, serveSkillMethods } from './skill-methods';

/**
 * Finds every decorated provider method at module init, wraps each once in Nest's pipeline under
 * context type `mcp`, and fills the registry. Any rule broken stops the boot, naming class and method.
 * @internal
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  private readonly logger = new Logger('McpExplorer');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly pipeline: McpPipelineFactory,
    private readonly accessor: McpMetadataAccessor,
    private readonly registry: McpRegistry,
    private readonly reflector: Reflector,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    const violations = new RegistryViolations();
    const skillMethods: SkillMethod[] = [];
    const compiler = new SchemaCompiler();
    const completions: { where: string; key: string; ref: string; kind: 'prompt' | 'template' }[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const { instance } = wrapper;
      if (!instance || typeof instance !== 'object') {
        if (!wrapper.isDependencyTreeStatic() && wrapper.metatype?.prototype) {
          this.refuseScoped(wrapper.metatype as Type<unknown>, wrapper.name, violations);
        }
        continue;
      }
      const prototype = Object.getPrototypeOf(instance);
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = prototype[methodName] as McpMethod;
        if (!this.accessor.hasAny(method)) continue;
        const source = { className: instance.constructor.name, methodName };
        const where = `${source.className}.${methodName}`;
        if (!wrapper.isDependencyTreeStatic()) {
          violations.add(
            where,
            'MCP handlers must live in singleton providers: request-scoped and transient providers are refused (inject McpCallContext via @McpCtx() instead of a REQUEST-scoped provider)',
          );
          continue;
        }
        const scopes = this.reflector.getAllAndMerge<string[]>(MCP_SCOPES_METADATA, [method, instance.constructor]);
        const skill = this.accessor.skill(method);
        if (skill) skillMethods.push({ where, path: skill.path, scopes, call: () => method.call(instance) });
        // A skill method is called once at boot, never by a client: it needs no pipeline.
        if (!this.accessor.hasHandler(method)) continue;
        const handler = this.pipeline.wrap(instance, methodName);
        this.register(method, source, handler, compiler, violations, completions, scopes);
        this.registerApp(method, source, handler, violations, scopes, () => method.call(instance));
      }
    }
    this.checkCompletions(completions, violations);
    checkApps(this.registry.tools, this.registry.resources, violations);
    checkPlaceholders(this.registry, violations, (message) => this.logger.warn(message));
    await serveSkillMethods(skillMethods, this.registry, violations, (message) => this.logger.warn(message));
    const serverTodo = serverPlaceholderWarning(this.options);
    if (serverTodo) this.logger.warn(serverTodo);
    violations.throwIfAny();
    const r = this.registry;
    this.logger.log(
      `MCP registry: ${r.tools.size} tools, ${r.prompts.size} prompts, ${r.resources.size} resources, ${r.templates.size} resource templates, ${r.skills.size} skills`,
    );
  }

  /** Each `@McpCompletion` names a prompt or template that exists. */
  private checkCompletions(
    completions: readonly { where: string; ref: string; kind: 'prompt' | 'template' }[],
    violations: RegistryViolations,
  ): void {
    for (const c of completions) {
      const exists = c.kind === 'prompt' ? this.registry.prompts.has(c.ref) : this.registry.templates.has(c.ref);
      if (!exists)
        violations.add(
          c.where,
          `@McpCompletion refers to unknown ${c.kind === 'prompt' ? 'prompt' : 'resource template'} "${c.ref}"`,
        );
    }
  }

  private register(
    method: McpMethod,
    source: { className: string; methodName: string },
    handler: McpHandler,
    compiler: SchemaCompiler,
    violations: RegistryViolations,
    completions: { where: string; key: string; ref: string; kind: 'prompt' | 'template' }[],
    requiredScopes: string[],
  ): void {
    const where = `${source.className}.${source.methodName}`;
    const service = this.options.name;
    const tool = this.accessor.tool(method);
    if (tool) {
      const entry = buildToolEntry(tool, source, handler, {
        service,
        defaultTimeoutMs: this.options.limits.toolTimeoutMs,
        compiler,
        violations,
      });
      if (entry && this.registry.tools.has(entry.name)) violations.add(where, `duplicate tool name "${entry.name}"`);
      else if (entry) this.registry.registerTool({ ...entry, requiredScopes });
    }
    const prompt = this.accessor.prompt(method);
    if (prompt) {
      const entry = buildPromptEntry(prompt, source, handler, violations);
      if (entry && this.registry.prompts.has(entry.name))
        violations.add(where, `duplicate prompt name "${entry.name}"`);
      else if (entry) this.registry.registerPrompt({ ...entry, requiredScopes });
    }
    const resource = this.accessor.resource(method);
    if (resource) {
      const entry = buildResourceEntry(resource, source, handler, service, violations);
      if (entry && this.registry.resources.has(entry.uri))
        violations.add(where, `duplicate resource URI "${entry.uri}"`);
      else if (entry) this.registry.registerResource({ ...entry, requiredScopes });
    }
    const template = this.accessor.resourceTemplate(method);
    if (template) {
      const entry = buildTemplateEntry(template, source, handler, service, violations);
      if (entry && this.registry.templates.has(entry.uriTemplate))
        violations.add(where, `duplicate resource template "${entry.uriTemplate}"`);
      else if (entry) this.registry.registerTemplate({ ...entry, requiredScopes });
    }
    const completion = this.accessor.completion(method);
    if (completion) {
      const [kind, ref] =
        'prompt' in completion
          ? (['prompt', completion.prompt] as const)
          : (['template', completion.resourceTemplate] as const);
      const key = McpRegistry.completionKey(kind, ref, completion.argument);
      if (this.registry.completions.has(key))
        violations.add(where, `duplicate completion for ${kind} "${ref}" argument "${completion.argument}"`);
      // Completion methods are plain helpers: no pipeline, they see only the partial value.
      const fn = method.bind(this.pipeline.instanceOf(handler)) as CompletionHandler;
      this.registry.registerCompletion(key, async (value, context) => fn(value, context));
      completions.push({ where, key, ref, kind });
    }
  }

  /**
   * An `@McpApp` view: a `ui://` resource. A built view (`view`) is read once here and served from memory after its
   * method ran through the pipeline; otherwise the method's HTML, when static, is read once here for the CSP check.
   */
  private registerApp(
    method: McpMethod,
    source: { className: string; methodName: string },
    handler: McpHandler,
    violations: RegistryViolations,
    requiredScopes: string[],
    read: () => unknown,
  ): void {
    const app = this.accessor.app(method);
    if (!app) return;
    let html: string | undefined;
    if (app.view !== undefined) {
      const built = loadBuiltView(process.env.MCP_VIEWS_DIR?.trim() || this.options.views?.root, app.view);
      // Registered even when it failed to load (the boot fails anyway), so that its tools' links still resolve.
      if ('problem' in built) violations.add(`${source.className}.${source.methodName}`, built.problem);
      const document = 'html' in built ? built.html : '';
      html = document;
      const run = handler;
      handler = async (args, ctx) => (await run(args, ctx), document);
    } else html = staticHtml(read, method.length);
    const entry = buildAppEntry(app, source, handler, violations, html);
    if (entry && this.registry.resources.has(entry.uri))
      violations.add(`${source.className}.${source.methodName}`, `duplicate resource URI "${entry.uri}"`);
    else if (entry) this.registry.registerResource({ ...entry, requiredScopes });
  }

  private refuseScoped(metatype: Type<unknown>, name: string, violations: RegistryViolations): void {
    for (const methodName of this.scanner.getAllMethodNames(metatype.prototype)) {
      if (this.accessor.hasAny(metatype.prototype[methodName])) {
        violations.add(
          `${name}.${methodName}`,
          'MCP handlers must live in singleton providers: request-scoped and transient providers are refused (inject McpCallContext via @McpCtx() instead of a REQUEST-scoped provider)',
        );
      }
    }
  }
}

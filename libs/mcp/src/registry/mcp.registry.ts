import { Inject, Injectable } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { ListPager } from './list-pager';
import {
  CompletionHandler,
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
  readonly tools = new Map<string, ToolEntry>();
  readonly prompts = new Map<string, PromptEntry>();
  readonly resources = new Map<string, ResourceEntry>();
  readonly templates = new Map<string, ResourceTemplateEntry>();
  readonly completions = new Map<string, CompletionHandler>();
  readonly pagers: Record<'tools' | 'prompts' | 'resources' | 'resourceTemplates', ListPager>;
  private readonly listeners: ((kind: McpListKind) => void)[] = [];

  constructor(@Inject(MCP_MODULE_OPTIONS) options: ResolvedMcpOptions) {
    const defs = <T extends { definition: Record<string, unknown> }>(m: Map<string, T>) => () =>
      [...m.values()].map((e) => e.definition);
    this.pagers = {
      tools: new ListPager('tools', options.pageSize, defs(this.tools)),
      prompts: new ListPager('prompts', options.pageSize, defs(this.prompts)),
      resources: new ListPager('resources', options.pageSize, defs(this.resources)),
      resourceTemplates: new ListPager('resourceTemplates', options.pageSize, defs(this.templates)),
    };
  }

  /** Key of a completion provider. @internal */
  static completionKey(kind: 'prompt' | 'template', ref: string, argument: string): string {
    return `${kind}\u0000${ref}\u0000${argument}`;
  }

  /**
   * Publishes a resource at run time (for example one per open record) and tells subscribed
   * clients that the resource list changed.
   */
  addResource(entry: ResourceEntry): void {
    this.resources.set(entry.uri, entry);
    this.changed('resources');
  }

  /** Withdraws a resource published at run time. */
  removeResource(uri: string): boolean {
    const removed = this.resources.delete(uri);
    if (removed) this.changed('resources');
    return removed;
  }

  /** Rebuilds a list's pages and tells connected clients (`list_changed`). */
  changed(kind: McpListKind): void {
    this.pagers[kind].invalidate();
    for (const listener of this.listeners) listener(kind);
  }

  /** @internal */
  onListChanged(listener: (kind: McpListKind) => void): void {
    this.listeners.push(listener);
  }
}

import { McpRegistry } from '../registry/mcp.registry';
import { ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { TASKS_EXTENSION } from '../tasks/tasks.constants';
import { SKILLS_EXTENSION } from '../skills/skills.constants';
import { APPS_EXTENSION, APP_MIME_TYPE } from '../registry/app-entry.factory';

/** A capability a method belongs to: without entries of its kind the method answers `-32601`. @internal */
export type Capability = 'tools' | 'prompts' | 'resources' | 'completions' | 'skills';

/** Whether the registry has entries of this capability now (entries may be added at run time). @internal */
export function serves(registry: McpRegistry, capability: Capability): boolean {
  switch (capability) {
    case 'tools':
      return registry.tools.size > 0;
    case 'prompts':
      return registry.prompts.size > 0;
    case 'resources':
      return servesOwnResources(registry) || registry.skills.size > 0;
    case 'completions':
      return registry.completions.size > 0;
    case 'skills':
      return registry.skills.size > 0;
  }
}

/** The app's own resources or templates (skill files are served beside them, docs/skills.md). */
function servesOwnResources(registry: McpRegistry): boolean {
  return registry.resources.size > 0 || registry.templates.size > 0;
}

/**
 * The capabilities this registry supports; declared in `initialize` and `server/discover`. With task tools: the
 * tasks extension to 2026-07-28 clients, the tasks utility to 2025-11-25 sessions (`tasks/list` only when callers
 * are told apart: without authentication every caller would see every task). With skills: the skills extension
 * (and `resources`) to every era. With an `@McpApp` view: the MCP Apps extension, to every era.
 * @internal
 */
export function serverCapabilities(
  registry: McpRegistry,
  version?: ProtocolVersion,
  authDisabled = false,
): Record<string, unknown> {
  const caps: Record<string, unknown> = { logging: {} };
  if (serves(registry, 'tools')) caps.tools = { listChanged: true };
  if (serves(registry, 'prompts')) caps.prompts = { listChanged: true };
  if (servesOwnResources(registry)) caps.resources = { subscribe: true, listChanged: true };
  else if (serves(registry, 'resources')) caps.resources = {};
  if (serves(registry, 'completions')) caps.completions = {};
  const extensions: Record<string, unknown> = {};
  if (version && [...registry.tools.values()].some((t) => t.task)) {
    if (eraFeatures(version).modern) extensions[TASKS_EXTENSION] = {};
    else if (eraFeatures(version).tasksUtility)
      caps.tasks = { ...(authDisabled ? {} : { list: {} }), cancel: {}, requests: { tools: { call: {} } } };
  }
  // Skills to every era alike: a 2025 session reads `extensions` from its capabilities too (docs/skills.md).
  if (serves(registry, 'skills')) extensions[SKILLS_EXTENSION] = { directoryRead: true };
  // MCP Apps to every era alike, once a view exists (docs/apps.md).
  if ([...registry.resources.values()].some((r) => r.ui)) extensions[APPS_EXTENSION] = { mimeTypes: [APP_MIME_TYPE] };
  if (Object.keys(extensions).length > 0) caps.extensions = extensions;
  return caps;
}

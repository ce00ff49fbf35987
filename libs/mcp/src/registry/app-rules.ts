import { RegistryViolations, uriScheme } from './registry-rules';
import { ResourceEntry, ToolEntry } from './registry-entries';

const VISIBILITIES = ['model', 'app'];

/**
 * The MCP Apps rules that need the whole catalogue (docs/apps.md#boot-checks): a tool's `ui.resourceUri` names a
 * `ui://` view this server declares, its `visibility` holds only `model` and `app` (at least one), and an app-only
 * tool needs no scope the view does not: whoever may read the view must be able to call the tools it calls.
 * @internal
 */
export function checkApps(
  tools: ReadonlyMap<string, ToolEntry>,
  resources: ReadonlyMap<string, ResourceEntry>,
  violations: RegistryViolations,
): void {
  for (const tool of tools.values()) {
    if (!tool.ui) continue;
    const where = `${tool.className}.${tool.methodName}`;
    const { resourceUri, visibility } = tool.ui;
    const label = `tool "${tool.name}" ui`;
    if (!visibility.length || visibility.some((v) => !VISIBILITIES.includes(v)))
      violations.add(where, `${label}.visibility must list "model", "app" or both, got ${JSON.stringify(visibility)}`);
    const view = resources.get(resourceUri);
    if (uriScheme(resourceUri ?? '') !== 'ui') {
      violations.add(where, `${label}.resourceUri "${resourceUri}" must be a ui:// URI (an @McpApp view)`);
      continue;
    }
    if (!view?.ui) {
      violations.add(where, `${label}.resourceUri "${resourceUri}" names no @McpApp view of this server`);
      continue;
    }
    const viewScopes = view.requiredScopes ?? [];
    const extra = (tool.requiredScopes ?? []).filter((s) => !viewScopes.includes(s));
    if (visibility.length === 1 && visibility[0] === 'app' && extra.length)
      violations.add(
        where,
        `app-only tool "${tool.name}" requires ${extra.join(', ')}, which the view "${resourceUri}" does not: ` +
          `a caller that can read the view could not call it; add the scopes to the view or drop them from the tool`,
      );
  }
}

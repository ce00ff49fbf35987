import type { Client, Tool } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE, type McpUiResourceMeta } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Every tool of the server, following pagination. */
export async function listAllTools(mcp: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await mcp.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Who may call a tool; the extension's default when it says nothing is both the model and the view. */
export function visibilityOf(tool: Tool | undefined): string[] {
  const ui = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui;
  return ui?.visibility ?? ['model', 'app'];
}

/** The view's HTML and `_meta.ui` from `resources/read`, checked as a host must before rendering it. */
export async function readView(mcp: Client, uri: string): Promise<{ html: string; ui: McpUiResourceMeta }> {
  const { contents } = await mcp.readResource({ uri });
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!content) throw new Error(`resources/read ${uri} returned no content`);
  if (content.mimeType !== RESOURCE_MIME_TYPE)
    throw new Error(`${uri} has mimeType ${content.mimeType}, not ${RESOURCE_MIME_TYPE}`);
  const html =
    'text' in content
      ? content.text
      : new TextDecoder().decode(Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0)));
  return { html, ui: (content._meta as { ui?: McpUiResourceMeta } | undefined)?.ui ?? {} };
}

/**
 * What the generators refuse, each as the one line the user reads. Shared by the schematic factories (which
 * see the options after the Nest CLI rewrote them) and by `npm run g` (which sees them as typed), so both
 * entry points refuse the same things with the same words.
 */

/** The generators of this collection. */
export type McpSchematic =
  'mcp-server' | 'mcp-tool' | 'mcp-prompt' | 'mcp-resource' | 'mcp-skill' | 'mcp-app' | 'mcp-downstream';

/** Every schematic of this collection, for callers that get the name as text. */
export const MCP_SCHEMATICS: readonly McpSchematic[] = [
  'mcp-server',
  'mcp-tool',
  'mcp-prompt',
  'mcp-resource',
  'mcp-skill',
  'mcp-app',
  'mcp-downstream',
];

/** The `--type` values each generator accepts; the first is the default. */
export const ACCEPTED_TYPES: Record<McpSchematic, readonly string[]> = {
  'mcp-server': ['express', 'fastify'],
  'mcp-tool': ['readonly', 'low', 'medium', 'high', 'task'],
  'mcp-prompt': [],
  'mcp-resource': ['fixed', 'template'],
  'mcp-skill': [],
  'mcp-app': [],
  'mcp-downstream': [],
};

/** A name as the user should type it: it becomes a folder, a class, an MCP name and, for a server, a URI scheme. */
const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_LENGTH: Record<McpSchematic, number> = {
  'mcp-server': 40,
  'mcp-tool': 60,
  'mcp-prompt': 60,
  'mcp-resource': 60,
  // The Agent Skills naming rules: at most 64 characters (kebab-case already rules out double hyphens).
  'mcp-skill': 64,
  // Its tool is `show_<name>`, and a tool name has at most 64 characters.
  'mcp-app': 59,
  // Its tool is `get_<name>_item`, and a tool name has at most 64 characters.
  'mcp-downstream': 55,
};
const EXAMPLE: Record<McpSchematic, string> = {
  'mcp-server': 'orders',
  'mcp-tool': 'find-order',
  'mcp-prompt': 'daily-summary',
  'mcp-resource': 'price-list',
  'mcp-skill': 'triage-ticket',
  'mcp-app': 'sales-dashboard',
  'mcp-downstream': 'asset-inventory',
};

/** Why `name` cannot be used, or undefined when it can. */
export function nameRefusal(schematic: McpSchematic, name: string | undefined): string | undefined {
  if (name !== undefined && KEBAB_CASE.test(name) && name.length <= MAX_LENGTH[schematic]) return undefined;
  // A slash is how `nest g service` nests folders; here the folder is --path, so say so.
  const hint = name?.includes('/')
    ? ' (a folder goes in --path)'
    : (name?.length ?? 0) > MAX_LENGTH[schematic]
      ? ` of at most ${MAX_LENGTH[schematic]} characters`
      : '';
  return `${schematic}: invalid name ${JSON.stringify(name ?? '')}: use lower-case kebab-case like "${EXAMPLE[schematic]}"${hint}`;
}

/** Why `type` cannot be used, or undefined when it is absent or accepted. */
export function typeRefusal(schematic: McpSchematic, type: string | undefined): string | undefined {
  const accepted = ACCEPTED_TYPES[schematic];
  if (type === undefined || accepted.includes(type)) return undefined;
  const use = accepted.length ? `use ${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}` : 'it takes no --type';
  return `${schematic}: unknown --type ${JSON.stringify(type)}: ${use}`;
}

/** What to say when a provider generator has no (or no known) `--project`: pass one, and which exist. */
export function projectRefusal(schematic: string, apps: readonly string[], given?: string): string {
  const known = apps.length
    ? `the apps under apps/ are: ${apps.join(', ')}`
    : 'there is no app under apps/ yet: create one with npm run g -- mcp-server <name>';
  const start = given === undefined ? schematic : `${schematic}: unknown --project ${JSON.stringify(given)}`;
  return `${start}: pass --project <app>; ${known}`;
}

/**
 * Why `nest g mcp-server` cannot use these options, or undefined. `--project` must repeat the name: it is only
 * there because `nest g` asks which project to generate into unless one is given.
 */
export function serverRefusal(name: string | undefined, project?: string, type?: string): string | undefined {
  if (project !== undefined) {
    // `nest g` lower-cases the name before the generator sees it but passes --project as typed: checking it first
    // refuses `Bad_Name` as `Bad_Name`, not as the `bad_name` the Nest CLI made of it.
    const refusal = nameRefusal('mcp-server', project);
    if (refusal) return refusal;
    if (project !== name) {
      return `mcp-server: --project ${JSON.stringify(project)} must repeat the name ${JSON.stringify(name ?? '')}`;
    }
  }
  return nameRefusal('mcp-server', name) ?? typeRefusal('mcp-server', type);
}

interface NestCliProjects {
  projects?: Record<string, { type?: string; root?: string }>;
}

/** The application projects of a nest-cli.json text, and of those the ones under apps/ (a team's servers). */
export function applications(nestCliJson: string): { all: string[]; underApps: string[] } {
  const projects = Object.entries((JSON.parse(nestCliJson) as NestCliProjects).projects ?? {}).filter(
    ([, p]) => p.type === 'application',
  );
  return {
    all: projects.map(([name]) => name),
    underApps: projects.filter(([, p]) => p.root?.startsWith('apps/')).map(([name]) => name),
  };
}

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { ContractSkill, McpContract } from './contract.types';

/** An application project of nest-cli.json. */
export interface AppProject {
  name: string;
  root: string;
  entryFile: string;
  tsConfigPath: string;
}

/** The applications under apps/ in nest-cli.json (fixtures under test/ are not published servers). */
export function appProjects(repo: string): AppProject[] {
  const cli = JSON.parse(readFileSync(join(repo, 'nest-cli.json'), 'utf8')) as {
    compilerOptions?: { tsConfigPath?: string };
    projects?: Record<
      string,
      { type: string; root: string; entryFile: string; compilerOptions?: { tsConfigPath?: string } }
    >;
  };
  return Object.entries(cli.projects ?? {})
    .filter(([, p]) => p.type === 'application' && p.root.startsWith('apps/'))
    .map(([name, p]) => ({
      name,
      root: p.root,
      entryFile: p.entryFile,
      tsConfigPath:
        p.compilerOptions?.tsConfigPath ?? cli.compilerOptions?.tsConfigPath ?? `${p.root}/tsconfig.app.json`,
    }));
}

/**
 * Builds the app as `npm run build -- <app>` does (skipped when nothing it reads changed since its last build;
 * output to stderr) and returns its compiled entry file.
 */
export function buildApp(repo: string, app: AppProject): string {
  const built = spawnSync(process.execPath, [join(repo, 'scripts/start.mjs'), '--build-only', app.name], {
    cwd: repo,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (built.status !== 0) throw new Error(`nest build ${app.name} failed`);
  const tsconfig = join(repo, app.tsConfigPath);
  const outDir = (JSON.parse(readFileSync(tsconfig, 'utf8')) as { compilerOptions: { outDir: string } }).compilerOptions
    .outDir;
  return join(dirname(tsconfig), outDir, `${app.entryFile}.js`);
}

type Page = { nextCursor?: string } & Record<string, unknown>;

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Accepts any result object as it came: `skills/list` results are read field by field below. */
const anyResult = z.object({}).passthrough();

async function all<T>(
  page: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    items.push(...((result[key] as T[]) ?? []));
    cursor = result.nextCursor;
  } while (cursor);
  return items;
}

/** The listed fields of an item, without the ones it does not have. */
function pick<T>(o: Record<string, unknown>, keys: string[]): T {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as T;
}
const byKey =
  <T>(key: keyof T) =>
  (a: T, b: T) =>
    String(a[key]).localeCompare(String(b[key]));

/**
 * The public contract exactly as clients see it: the built server started over stdio (no authentication, so
 * every item is listed) and read with the official SDK client, every page.
 */
export async function readContract(entry: string, cwd: string): Promise<McpContract> {
  const client = new Client({ name: 'mcp-contract', version: '1.0.0' });
  await client.connect(stdioServer(entry, cwd));
  try {
    const server = client.getServerVersion()!;
    // A server declares only the kinds it has: one without tools answers tools/list with -32601.
    const caps = client.getServerCapabilities() ?? {};
    const list = <T>(declared: unknown, page: (cursor?: string) => Promise<Page>, key: string) =>
      declared ? all<T>(page, key) : Promise.resolve([] as T[]);
    const tools = await list<Record<string, unknown>>(caps.tools, (cursor) => client.listTools({ cursor }), 'tools');
    const prompts = await list<Record<string, unknown>>(
      caps.prompts,
      (cursor) => client.listPrompts({ cursor }),
      'prompts',
    );
    const resources = await list<Record<string, unknown>>(
      caps.resources,
      (cursor) => client.listResources({ cursor }),
      'resources',
    );
    const templates = await list<Record<string, unknown>>(
      caps.resources,
      (cursor) => client.listResourceTemplates({ cursor }),
      'resourceTemplates',
    );
    // Skills are an extension: listed when the server declares it (skills/list has no SDK method of this client).
    const skillsDeclared = (caps as { extensions?: Record<string, unknown> }).extensions?.[SKILLS_EXTENSION];
    const skills = await list<Record<string, unknown>>(
      skillsDeclared,
      (cursor) => client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, anyResult),
      'skills',
    );
    return contractOf(server, { tools, prompts, resources, templates, skills });
  } finally {
    await client.close();
  }
}

/** The built server as a child process over stdio, quiet and untraced: only its answers matter here. */
function stdioServer(entry: string, cwd: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [entry, '--stdio'],
    cwd,
    env: {
      ...(process.env as Record<string, string>),
      NODE_OPTIONS: '',
      OTEL_SDK_DISABLED: 'true',
      LOG_LEVEL: 'error',
    },
    stderr: 'pipe',
  });
}

type Listed = Record<string, unknown>[];

/** The contract's fields of a `skills/list` entry: its URI, name, description and files' digests. */
function skillOf(s: Record<string, unknown>): ContractSkill {
  const frontmatter = (s.frontmatter ?? {}) as Record<string, unknown>;
  const files = ((s.resources ?? []) as { uri: string; digest: string }[])
    .map((f) => ({ uri: f.uri, digest: f.digest }))
    .sort(byKey('uri'));
  return {
    uri: String(s.uri),
    name: String(frontmatter.name ?? ''),
    description: String(frontmatter.description ?? ''),
    files,
  };
}

/** The contract's fields of every listed item, sorted by name or URI so that a diff shows only real changes. */
function contractOf(
  server: { name: string; version: string },
  listed: { tools: Listed; prompts: Listed; resources: Listed; templates: Listed; skills: Listed },
): McpContract {
  const { tools, prompts, templates } = listed;
  const skills = listed.skills.map(skillOf).sort(byKey('uri'));
  // A skill's SKILL.md is also listed as a resource: the contract records it once, as the skill.
  const skillUris = new Set(skills.map((s) => s.uri));
  const resources = listed.resources.filter((r) => !skillUris.has(String(r.uri)));
  return {
    server: { name: server.name, version: server.version },
    tools: tools
      .map((t) =>
        pick<McpContract['tools'][number]>(t, [
          'name',
          'title',
          'description',
          'inputSchema',
          'outputSchema',
          'annotations',
        ]),
      )
      .sort(byKey('name')),
    prompts: prompts
      .map((p) => pick<McpContract['prompts'][number]>(p, ['name', 'title', 'description', 'arguments']))
      .sort(byKey('name')),
    resources: resources
      .map((r) => pick<McpContract['resources'][number]>(r, ['uri', 'name', 'title', 'description', 'mimeType']))
      .sort(byKey('uri')),
    resourceTemplates: templates
      .map((t) =>
        pick<McpContract['resourceTemplates'][number]>(t, ['uriTemplate', 'name', 'title', 'description', 'mimeType']),
      )
      .sort(byKey('uriTemplate')),
    skills,
    deprecations: {},
  };
}

import {
  MCP_SCHEMATICS,
  McpSchematic,
  nameRefusal,
  projectRefusal,
  serverRefusal,
  typeRefusal,
} from '../utils/option-rules';

/** The arguments of `nest generate` that decide what `npm run g` checks before it hands over to the Nest CLI. */
export interface GenerateArgs {
  schematic?: string;
  name?: string;
  /** `true` when `--project` came without a value (the Nest CLI then still asks). */
  project?: string | true;
  type?: string;
  collection?: string | true;
}

/** The options of `nest generate` that take a value (from @nestjs/cli's generate.command.js), by how. */
const VALUE_OPTIONS: Record<string, { key?: keyof GenerateArgs; value: 'optional' | 'required' }> = {
  '--project': { key: 'project', value: 'optional' },
  '-p': { key: 'project', value: 'optional' },
  '--type': { key: 'type', value: 'required' },
  '--collection': { key: 'collection', value: 'optional' },
  '-c': { key: 'collection', value: 'optional' },
  '--spec-file-suffix': { value: 'optional' },
  '--crud': { value: 'optional' },
};

/** Reads `nest generate` arguments the way the Nest CLI's parser (commander) does, for the options above. */
export function parseGenerateArgs(argv: readonly string[]): GenerateArgs {
  const args: GenerateArgs = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    // `-pacme` is commander's short form of `-p acme`.
    const short = /^-[pc]./.test(token) ? token.slice(0, 2) : undefined;
    const flag = eq > 0 ? token.slice(0, eq) : (short ?? token);
    const option = VALUE_OPTIONS[flag];
    if (!option) continue;
    let value: string | true = true;
    if (eq > 0) value = token.slice(eq + 1);
    else if (short) value = token.slice(2);
    else if (i + 1 < argv.length && (option.value === 'required' || !argv[i + 1].startsWith('-'))) value = argv[++i];
    if (option.key) (args as Record<string, unknown>)[option.key] = value;
  }
  [args.schematic, args.name] = positionals;
  return args;
}

/** What `npm run g` knows about the repository and the terminal when it checks the arguments. */
export interface GenerateSetting {
  /** Every application project of nest-cli.json, and those under apps/. */
  apps: { all: string[]; underApps: string[] };
  /** Whether a person can answer the Nest CLI's project picker (stdin is a terminal). */
  interactive: boolean;
}

/** The schematics the Nest CLI never asks a project for (its `shouldAskForProject`). */
const CREATES_PROJECT = ['app', 'sub-app', 'library', 'lib'];

/**
 * Checks the arguments as typed, before the Nest CLI rewrites the name (`Bad_Name` -> `bad_name`) or opens its
 * project picker. Returns the one line that refuses them, or the arguments to add (`mcp-server` generates into
 * the project it creates, so `--project <name>` is implied).
 */
export function checkGenerateArgs(args: GenerateArgs, setting: GenerateSetting): { refusal?: string; extra: string[] } {
  const { schematic, name, type } = args;
  const project = args.project === true ? undefined : args.project;
  if (!schematic || CREATES_PROJECT.includes(schematic)) return { extra: [] };
  const ours = args.collection === undefined && (MCP_SCHEMATICS as readonly string[]).includes(schematic);
  if (ours && schematic === 'mcp-server') {
    const refusal = serverRefusal(name, project, type);
    return refusal ? { refusal, extra: [] } : { extra: project === undefined ? ['--project', name!] : [] };
  }
  if (ours) {
    const refusal = nameRefusal(schematic as McpSchematic, name) ?? typeRefusal(schematic as McpSchematic, type);
    if (refusal) return { refusal, extra: [] };
    if (project !== undefined && !setting.apps.all.includes(project)) {
      return { refusal: projectRefusal(schematic as McpSchematic, setting.apps.underApps, project), extra: [] };
    }
  }
  // Without a project the Nest CLI opens a picker: fine for a person, a silent `exit 1` for CI.
  if (project === undefined && !setting.interactive) {
    return { refusal: projectRefusal(schematic, setting.apps.underApps), extra: [] };
  }
  return { extra: [] };
}

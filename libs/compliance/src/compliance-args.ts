import { StandardVersion } from './compliance.types';

/** What the command was asked to do. */
export interface ComplianceArgs {
  url: URL;
  token?: string;
  standards?: StandardVersion[];
  format: 'md' | 'json';
  out?: string;
  /** The server's folder: README.md and CHANGELOG.md for the documentation items. */
  dir?: string;
}

export const USAGE =
  'usage: npm run compliance -- --url <endpoint> [--token <bearer>] [--standard 1.2|2.0] [--format md|json] ' +
  '[--out <file>] [--dir <server folder>]';

/** Parses the command line; a message (not an exception) for anything wrong, which the command turns into exit 2. */
export function parseArgs(argv: string[]): ComplianceArgs | string {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!['--url', '--token', '--standard', '--format', '--out', '--dir'].includes(flag))
      return `unknown argument ${JSON.stringify(flag)}`;
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value`;
    values[flag.slice(2)] = value;
  }
  if (!values.url) return '--url is required (the MCP endpoint, e.g. http://127.0.0.1:3000/mcp)';
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return `--url is not a URL: ${JSON.stringify(values.url)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '--url must be http: or https:';
  if (values.standard !== undefined && values.standard !== '1.2' && values.standard !== '2.0')
    return '--standard must be 1.2 or 2.0';
  const format = values.format ?? 'md';
  if (format !== 'md' && format !== 'json') return '--format must be md or json';
  return {
    url,
    ...(values.token ? { token: values.token } : {}),
    ...(values.standard ? { standards: [values.standard as StandardVersion] } : {}),
    format,
    ...(values.out ? { out: values.out } : {}),
    ...(values.dir ? { dir: values.dir } : {}),
  };
}

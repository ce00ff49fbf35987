import { CHECKLIST } from './checklist';
import { StandardVersion } from './compliance.types';
import { DEFAULT_DEADLINE_SEC } from './run-guard';

/** What the command was asked to do: check `app` (started here) or the server at `url`. */
export interface ComplianceArgs {
  /** An app under apps/, built and started by the command in its production configuration. */
  app?: string;
  url?: URL;
  token?: string;
  /** A private JWK file of the issuer the server trusts (URL mode): the negative token checks mint with it. */
  issuerKey?: string;
  standards?: StandardVersion[];
  format: 'md' | 'json';
  out?: string;
  /** The server's folder: README.md, CHANGELOG.md and mcp-contract.json for the documentation items. */
  dir?: string;
  /** Items not to check (reported as manual, never as passed): a quicker loop while fixing the others. */
  skip: string[];
  /** The whole run's deadline, in seconds (docs/compliance.md#safety). */
  deadlineSec: number;
}

export const USAGE = [
  'usage: npm run compliance -- <app> [--standard 1.2|2.0] [--format md|json] [--out <file>] [--skip <id,…>]',
  '       [--deadline <seconds>]',
  '   or: npm run compliance -- --url <endpoint> [--token <bearer>] [--issuer-key <file>] [--dir <server folder>]',
  '       [--standard 1.2|2.0] [--format md|json] [--out <file>] [--skip <id,…>] [--deadline <seconds>]',
  `--deadline bounds the whole run (default ${DEFAULT_DEADLINE_SEC} s); past it the run stops with exit 2.`,
].join('\n');

const FLAGS = ['--url', '--token', '--issuer-key', '--standard', '--format', '--out', '--dir', '--skip', '--deadline'];
/** The longest deadline taken: a day, beyond which a typo is likelier than a wish. */
const MAX_DEADLINE_SEC = 86_400;

/** Parses the command line; a message (not an exception) for anything wrong, which the command turns into exit 2. */
export function parseArgs(argv: string[]): ComplianceArgs | string {
  const values: Record<string, string> = {};
  const apps: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-')) {
      apps.push(arg);
      continue;
    }
    if (!FLAGS.includes(arg)) return `unknown argument ${JSON.stringify(arg)}`;
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) return `${arg} needs a value`;
    values[arg.slice(2)] = value;
  }
  if (apps.length > 1) return `name one app, not ${apps.length} (${apps.join(', ')})`;
  const [app] = apps;
  if (app && values.url) return 'name an app or give --url, not both';
  if (app && (values.token || values['issuer-key'] || values.dir))
    return '--token, --issuer-key and --dir are for --url: for an app the command mints its tokens and reads its folder';
  if (!app && !values.url)
    return 'name an app under apps/, or give --url (the MCP endpoint of a running server, e.g. http://127.0.0.1:3000/mcp)';
  let url: URL | undefined;
  if (values.url) {
    try {
      url = new URL(values.url);
    } catch {
      return `--url is not a URL: ${JSON.stringify(values.url)}`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '--url must be http: or https:';
  }
  if (values.standard !== undefined && values.standard !== '1.2' && values.standard !== '2.0')
    return '--standard must be 1.2 or 2.0';
  const format = values.format ?? 'md';
  if (format !== 'md' && format !== 'json') return '--format must be md or json';
  const skip = values.skip ? values.skip.split(',').map((id) => id.trim()) : [];
  const unknownItem = skip.find((id) => !CHECKLIST.some((item) => item.id === id));
  if (unknownItem) return `--skip: no checklist item ${JSON.stringify(unknownItem)}`;
  const deadlineSec = values.deadline === undefined ? DEFAULT_DEADLINE_SEC : Number(values.deadline);
  if (!/^\d+$/.test(values.deadline ?? '1') || deadlineSec < 1 || deadlineSec > MAX_DEADLINE_SEC)
    return `--deadline must be a whole number of seconds from 1 to ${MAX_DEADLINE_SEC}, not ${JSON.stringify(values.deadline)}`;
  return {
    skip,
    deadlineSec,
    ...(app ? { app } : {}),
    ...(url ? { url } : {}),
    ...(values.token ? { token: values.token } : {}),
    ...(values['issuer-key'] ? { issuerKey: values['issuer-key'] } : {}),
    ...(values.standard ? { standards: [values.standard as StandardVersion] } : {}),
    format,
    ...(values.out ? { out: values.out } : {}),
    ...(values.dir ? { dir: values.dir } : {}),
  };
}

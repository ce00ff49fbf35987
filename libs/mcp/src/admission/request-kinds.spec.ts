import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SESSION_ERA_METHODS, MODERN_METHODS } from '../protocol/method-table';
import * as legacyEndpoints from '../transports/legacy-sse/legacy-sse.endpoint';
import { BUDGETS, FAMILY_BUDGETS, METHOD_FAMILIES, REQUEST_KINDS, passes } from './request-kinds';

const SRC = resolve(__dirname, '..');
const DOC = resolve(SRC, '../../../docs/limits-and-errors.md');
const read = (path: string) => readFileSync(join(SRC, path), 'utf8');

/** Methods the dispatcher serves beside the tables (`initialize` itself, `subscriptions/listen` added to the era). */
function dispatcherMethods(): string[] {
  const text = read('protocol/mcp.dispatcher.ts');
  const added = [...text.matchAll(/'([\w/]+)': \{ handler/g)].map(([, m]) => m);
  const compared = [...text.matchAll(/method === '([\w/]+)'/g)].map(([, m]) => m);
  return [...added, ...compared];
}

/** Every route of the HTTP controllers, as `VERB /path`. */
function httpRoutes(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(SRC, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.controller.ts')) files.push(path);
    }
  };
  walk('transports');
  const paths = legacyEndpoints as unknown as Record<string, string>;
  return files.flatMap((file) =>
    [...read(file).matchAll(/@(Get|Post|Delete|Put|Patch|All)\((\w*)\)/g)].map(
      ([, verb, arg]) => `${verb.toUpperCase()} /${arg ? paths[arg] : 'mcp'}`,
    ),
  );
}

/** The page's table, rendered from the typed one: the page must show exactly this. */
function rendered(): string {
  const order = (budgets: readonly string[]) => (budgets.length ? budgets.map((b) => `\`${b}\``).join(' → ') : '—');
  const rows = Object.entries(REQUEST_KINDS).map(([kind, budgets]) => `| ${kind} | ${order(budgets)} |`);
  const families = Object.entries(FAMILY_BUDGETS).map(([family, budgets]) => {
    const methods = Object.entries(METHOD_FAMILIES).filter(([, f]) => f === family);
    const named = methods.length ? `${family}: ${methods.map(([m]) => `\`${m}\``).join(', ')}` : family;
    return `| ${named} | ${order(budgets)} |`;
  });
  return ['| Request kind | Budgets, in order |', '| --- | --- |', ...rows, ...families].join('\n');
}

describe('admission: every request kind has a row (admission/request-kinds.ts)', () => {
  it('every method either era serves has a family, and no family row names a method nobody serves', () => {
    const named = dispatcherMethods().filter((m) => !m.startsWith('notifications/'));
    const served = new Set([...Object.keys(SESSION_ERA_METHODS), ...Object.keys(MODERN_METHODS), ...named]);
    expect(served.has('subscriptions/listen')).toBe(true);
    expect(served.has('initialize')).toBe(true);
    const missing = [...served].filter((m) => !Object.hasOwn(METHOD_FAMILIES, m));
    expect(missing).toEqual([]);
    expect(Object.keys(METHOD_FAMILIES).filter((m) => !served.has(m))).toEqual([]);
  });

  it('every notification the dispatcher treats apart has a row of its own', () => {
    const apart = dispatcherMethods().filter((m) => m.startsWith('notifications/'));
    expect(apart).toContain('notifications/initialized');
    const kinds = Object.keys(REQUEST_KINDS);
    expect(apart.filter((m) => !kinds.some((kind) => kind.startsWith(m)))).toEqual([]);
  });

  it('every HTTP route of the transports has a row', () => {
    const routes = httpRoutes();
    expect(routes).toEqual(expect.arrayContaining(['POST /mcp', 'GET /mcp', 'DELETE /mcp', 'GET /sse']));
    const kinds = Object.keys(REQUEST_KINDS);
    expect(routes.filter((route) => !kinds.some((kind) => kind.startsWith(route)))).toEqual([]);
  });

  it('every transport has a row (a new transport folder needs one)', () => {
    const rows: Record<string, string> = { http: 'POST /mcp', 'legacy-sse': 'GET /sse', stdio: 'stdio line' };
    const transports = readdirSync(join(SRC, 'transports'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(
      transports.filter((t) => !rows[t] || !Object.keys(REQUEST_KINDS).some((k) => k.startsWith(rows[t]))),
    ).toEqual([]);
  });

  it('every budget is passed by some request kind', () => {
    const used = new Set<string>([...Object.values(REQUEST_KINDS), ...Object.values(FAMILY_BUDGETS)].flat());
    expect(Object.keys(BUDGETS).filter((b) => !used.has(b))).toEqual([]);
  });

  it('answers which budgets a method passes: ping is served while draining, an unknown method counts', () => {
    expect(passes('ping', 'draining')).toBe(false);
    expect(passes('tools/list', 'draining')).toBe(true);
    expect(passes('tools/call', 'concurrency')).toBe(true);
    expect(passes('made/up', 'requests')).toBe(true);
    expect(passes('constructor', 'draining')).toBe(false);
  });

  it('docs/limits-and-errors.md#admission shows this table and every budget', () => {
    const page = readFileSync(DOC, 'utf8');
    expect(page).toContain(rendered());
    const budgets = Object.entries(BUDGETS).map(([budget, sizedBy]) => `| \`${budget}\` | ${sizedBy} |`);
    expect(page).toContain(['| Budget | Sized by |', '| --- | --- |', ...budgets].join('\n'));
  });
});

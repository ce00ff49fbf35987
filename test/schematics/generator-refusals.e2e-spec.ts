import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freeAppName } from '../support/free-app-name';
import { copyRepository, run, runStatus } from '../support/repo-copy';

/**
 * The generators refuse what they say they refuse, through the real Nest CLI in a temporary copy of the
 * repository: an invalid name, an unknown --type, an unknown or missing --project (no terminal here, as in CI),
 * an existing provider. `npm run g` (the Nest CLI behind one check of the arguments as typed) exits non-zero with
 * one line saying what to pass, and writes nothing. `npx nest g` prints the same refusal but @nestjs/cli 12 exits
 * 0 after any schematic failure (see libs/schematics/src/cli/generate.cli.ts), so CI uses `npm run g`.
 */
describe('the generators refuse invalid input with one line and write nothing (in a temporary copy)', () => {
  jest.setTimeout(600_000);
  let dir: string;
  let APP: string;

  /** Every file under apps/ with its content, and nest-cli.json: what a refused run must leave as it was. */
  const snapshot = () => {
    const files = readdirSync(join(dir, 'apps'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    return [join(dir, 'nest-cli.json'), ...files].sort().map((f) => [f, readFileSync(f, 'utf8')]);
  };
  /** The apps under apps/ that nest-cli.json registers, as the refusals name them. */
  const apps = () => {
    const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
    return Object.entries<{ type: string; root: string }>(cli.projects)
      .filter(([, p]) => p.type === 'application' && p.root.startsWith('apps/'))
      .map(([name]) => name)
      .join(', ');
  };
  const refused = (command: string, args: string[]) => {
    const before = snapshot();
    const { status, output } = runStatus(dir, 'npm', ['run', '-s', command, '--', ...args]);
    expect(snapshot()).toEqual(before);
    return { status, lines: output.trim().split('\n') };
  };

  beforeAll(() => {
    dir = copyRepository('mcp-generator-refusals-');
    APP = freeAppName(dir, 'acme');
    // No --project: `npm run g` gives mcp-server its own name, so the Nest CLI asks nothing.
    const out = run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-server', APP]);
    expect(out).toContain(`CREATE apps/${APP}/src/main.ts`);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kebab = (schematic: string, name: string, example: string) =>
    `${schematic}: invalid name ${JSON.stringify(name)}: use lower-case kebab-case like "${example}"`;

  it.each([
    [['mcp-server', 'Bad_Name', '--project', 'Bad_Name'], kebab('mcp-server', 'Bad_Name', 'orders')],
    [['mcp-server', '1x'], kebab('mcp-server', '1x', 'orders')],
    [['mcp-tool', 'Bad_Name', '--project', '$APP'], kebab('mcp-tool', 'Bad_Name', 'find-order')],
    [['mcp-tool', '1x', '--project', '$APP'], kebab('mcp-tool', '1x', 'find-order')],
    [['mcp-tool', '', '--project', '$APP'], kebab('mcp-tool', '', 'find-order')],
    [['mcp-tool', 'find order', '--project', '$APP'], kebab('mcp-tool', 'find order', 'find-order')],
    [['mcp-prompt', 'findOrder', '--project', '$APP'], kebab('mcp-prompt', 'findOrder', 'daily-summary')],
    [
      ['mcp-resource', 'lists/price-list', '--project', '$APP'],
      `${kebab('mcp-resource', 'lists/price-list', 'price-list')} (a folder goes in --path)`,
    ],
    [
      ['mcp-tool', 'find-order', '--project', '$APP', '--type', 'extreme'],
      'mcp-tool: unknown --type "extreme": use readonly, low, medium, high or task',
    ],
    [
      ['mcp-resource', 'price-list', '--project', '$APP', '--type', 'stream'],
      'mcp-resource: unknown --type "stream": use fixed or template',
    ],
    [
      ['mcp-prompt', 'daily-summary', '--project', '$APP', '--type', 'x'],
      'mcp-prompt: unknown --type "x": it takes no --type',
    ],
    [['mcp-skill', 'Triage_Ticket', '--project', '$APP'], kebab('mcp-skill', 'Triage_Ticket', 'triage-ticket')],
    [
      ['mcp-skill', 'triage-ticket', '--project', '$APP', '--type', 'x'],
      'mcp-skill: unknown --type "x": it takes no --type',
    ],
    [['mcp-app', 'SalesBoard', '--project', '$APP'], kebab('mcp-app', 'SalesBoard', 'sales-dashboard')],
    [
      ['mcp-app', 'sales-board', '--project', '$APP', '--type', 'react'],
      'mcp-app: unknown --type "react": it takes no --type',
    ],
    [
      ['mcp-downstream', 'AssetInventory', '--project', '$APP'],
      kebab('mcp-downstream', 'AssetInventory', 'asset-inventory'),
    ],
    [
      ['mcp-downstream', 'asset-inventory', '--project', '$APP', '--type', 'oauth'],
      'mcp-downstream: unknown --type "oauth": it takes no --type',
    ],
    [
      ['mcp-tool', 'find-order', '--project', 'no-such-app'],
      'mcp-tool: unknown --project "no-such-app": pass --project <app>; the apps under apps/ are: $APPS',
    ],
    [['mcp-tool', 'find-order'], 'mcp-tool: pass --project <app>; the apps under apps/ are: $APPS'],
  ])('npm run g -- %j exits 1 with: %s', (args, line) => {
    const { status, lines } = refused(
      'g',
      args.map((a) => a.replace('$APP', APP)),
    );
    expect({ status, lines }).toEqual({ status: 1, lines: [line.replace('$APPS', apps())] });
  });

  it('a refusal only the generator can see (the app or provider exists) fails npm run g too, in one line', () => {
    expect(refused('g', ['mcp-server', APP])).toEqual({
      status: 1,
      lines: [`Error: mcp-server: a project "${APP}" already exists`],
    });
    run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-tool', 'find-order', '--project', APP]);
    expect(refused('g', ['mcp-tool', 'find-order', '--project', APP])).toEqual({
      status: 1,
      lines: [
        `Error: mcp-tool: apps/${APP}/src/find-order/find-order.tools.ts already exists: ` +
          'choose another name or delete it first',
      ],
    });
  });

  it('npx nest g prints the same refusal and writes nothing (its exit status stays the Nest CLI’s)', () => {
    const cases: [string[], string][] = [
      [['mcp-server', 'Bad_Name', '--project', 'Bad_Name'], kebab('mcp-server', 'Bad_Name', 'orders')],
      // The Nest CLI lower-cases the name before the generator sees it; the underscore still gives it away.
      [['mcp-tool', 'Bad_Name', '--project', APP], kebab('mcp-tool', 'bad_name', 'find-order')],
      [
        ['mcp-tool', 'find-order', '--project', APP, '--type', 'extreme'],
        'mcp-tool: unknown --type "extreme": use readonly, low, medium, high or task',
      ],
    ];
    for (const [args, line] of cases) {
      const before = snapshot();
      const { output } = runStatus(dir, 'npx', ['nest', 'g', ...args]);
      expect(output).toContain(`Error: ${line}\n`);
      expect(snapshot()).toEqual(before);
    }
  });
});

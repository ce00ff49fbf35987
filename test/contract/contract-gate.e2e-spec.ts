import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyRepository, run, runStatus } from '../support/repo-copy';
import { freeAppName } from '../support/free-app-name';

/**
 * The contract gate (corporate standard §17, see docs/compliance.md#s17) run as documented, on a server generated
 * in a temporary copy of the repository: `npm run contract -- <app>` records the contract,
 * `npm run contract:check -- <app>` passes, a breaking change fails naming each change, and a major version bump
 * lets it through.
 */

describe('contract gate: npm run contract / contract:check', () => {
  jest.setTimeout(300_000);
  let dir: string;
  // `billing`, or the first free variant when a team's own app already has that name.
  let APP: string;
  const file = (path: string) => join(dir, `apps/${APP}`, path);

  beforeAll(() => {
    dir = copyRepository('mcp-contract-gate-');
    APP = freeAppName(dir, 'billing');
    run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-server', APP]);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('contract:check without a contract file says how to write one', () => {
    const { status, output } = runStatus(dir, 'npm', ['run', '-s', 'contract:check', '--', APP]);
    expect(status).toBe(1);
    expect(output).toContain(`${APP}: no apps/${APP}/mcp-contract.json; write it with: npm run contract -- ${APP}`);
  });

  it('npm run contract writes what clients see: server version, tools with schemas, prompts, resources', () => {
    run(dir, 'npm', ['run', '-s', 'contract', '--', APP]);
    const contract = JSON.parse(readFileSync(file('mcp-contract.json'), 'utf8'));
    expect(contract.server).toEqual({ name: APP, version: '0.1.0' });
    const tool = contract.tools.find((t: { name: string }) => t.name === 'get_greeting');
    expect(tool.inputSchema).toMatchObject({
      properties: { name: { type: 'string', maxLength: 80 } },
      required: ['name'],
    });
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(contract.prompts.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['agent_brief']));
    expect(contract.resources.map((r: { uri: string }) => r.uri)).toContain('project://version');
  });

  it('contract:check passes on the unchanged code', () => {
    const output = run(dir, 'npm', ['run', '-s', 'contract:check', '--', APP]);
    expect(output).toContain(`${APP}: contract OK (0.1.0: 1 tool, `);
  });

  it('a narrowed argument and a new required argument fail the check, each named', () => {
    const dto = file('src/greeting/dto/greeting.dto.ts');
    const source = readFileSync(dto, 'utf8');
    writeFileSync(
      dto,
      source
        .replace('@Length(1, 80)', '@Length(1, 20)')
        .replace(
          'name!: string;',
          "name!: string;\n\n  @McpField({ description: 'Language.' })\n  @IsString()\n  lang!: string;",
        ),
    );
    const { status, output } = runStatus(dir, 'npm', ['run', '-s', 'contract:check', '--', APP]);
    expect(status).toBe(1);
    expect(output).toContain('tool "get_greeting": input property "name" maxLength lowered to 20');
    expect(output).toContain('tool "get_greeting": new required input property "lang"');
    expect(output).toContain('a breaking change needs a major version bump (0.1.0 -> 0.1.0)');
  });

  it('a removed tool fails unless deprecated first; a major version bump lets every change through', () => {
    rmSync(file('src/greeting'), { recursive: true });
    const module = file('src/app.module.ts');
    const source = readFileSync(module, 'utf8');
    const without = source
      .replace("import { GreetingTools } from './greeting/greeting.tools';\n", '')
      .replace('providers: [GreetingTools]', 'providers: []');
    expect(without).not.toContain('Greeting');
    writeFileSync(module, without);
    const refused = runStatus(dir, 'npm', ['run', '-s', 'contract:check', '--', APP]);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('tool "get_greeting" was removed or renamed: deprecate it first');
    const pkg = file('package.json');
    writeFileSync(pkg, readFileSync(pkg, 'utf8').replace('"version": "0.1.0"', '"version": "1.0.0"'));
    const allowed = run(dir, 'npm', ['run', '-s', 'contract:check', '--', APP]);
    expect(allowed).toContain('tool "get_greeting" was removed (allowed: major version bump 0.1.0 -> 1.0.0)');
    expect(allowed).toContain(`${APP}: contract OK (1.0.0: 0 tools`);
    expect(existsSync(file('mcp-contract.json'))).toBe(true);
  });

  it('an unknown app is a usage error naming the apps', () => {
    const { status, output } = runStatus(dir, 'npm', ['run', '-s', 'contract:check', '--', 'no-such-app']);
    expect(status).toBe(2);
    expect(output).toContain('unknown app no-such-app; the apps under apps/ are:');
    expect(output).toContain(APP);
  });
});

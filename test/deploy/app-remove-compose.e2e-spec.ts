import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { composeSecrets, parseYaml, runCompose } from '../support/compose-config';

const ROOT = resolve(__dirname, '../..');

/**
 * `npm run app:remove -- <app>` takes with the app what docker-compose.yml holds of its own: the lines between
 * `# begin app <app>` and `# end app <app>` (its services, its replicas' settings), and leaves the rest, another app's
 * blocks included, valid for docker-compose and Prettier. Run on the repository's compose file with two apps of this
 * test's own (`alpha`, removed, and `beta`) in a folder of its own.
 */
describe('npm run app:remove and the compose blocks of an app', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-app-remove-'));
    cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
    cpSync(join(ROOT, '.prettierrc.json'), join(dir, '.prettierrc.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const projects: Record<string, unknown> = {};
    for (const app of ['alpha', 'beta']) {
      mkdirSync(join(dir, 'apps', app), { recursive: true });
      writeFileSync(
        join(dir, 'apps', app, 'tsconfig.app.json'),
        JSON.stringify({ compilerOptions: { outDir: `../../dist/apps/${app}` } }),
      );
      projects[app] = {
        type: 'application',
        root: `apps/${app}`,
        sourceRoot: `apps/${app}/src`,
        compilerOptions: { tsConfigPath: `apps/${app}/tsconfig.app.json` },
      };
    }
    writeFileSync(
      join(dir, 'nest-cli.json'),
      JSON.stringify({ root: 'apps/alpha', sourceRoot: 'apps/alpha/src', compilerOptions: {}, projects }),
    );
    // The repository's file, with a block of each app: a setting of the replicas and a service.
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')
      .replace(/\$\{APP:-[\w-]+\}/g, '${APP:-alpha}')
      .replace(
        /^( {4}OTEL_TRACES_SAMPLER: .*)$/m,
        `$1\n    # begin app alpha (a setting of its own)\n    ALPHA_URL: http://127.0.0.1:9000/\n    # end app alpha`,
      )
      .replace(
        /^services:$/m,
        [
          'services:',
          '  # begin app alpha',
          '  alpha-sidecar:',
          '    image: busybox',
          '    mem_limit: 16m',
          '    cpus: 0.1',
          '  # end app alpha',
          '',
          '  # begin app beta',
          '  beta-sidecar:',
          '    image: busybox',
          '    mem_limit: 16m',
          '    cpus: 0.1',
          '  # end app beta',
          '',
        ].join('\n'),
      );
    writeFileSync(join(dir, 'docker-compose.yml'), compose);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("removes the app's blocks, moves the default, and leaves a file docker-compose and Prettier accept", () => {
    const run = spawnSync(process.execPath, ['scripts/remove-app.mjs', 'alpha'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("removed 2 blocks of alpha's own from docker-compose.yml");
    expect(run.stdout).toContain('docker-compose.yml deploys beta when APP is not set');
    const compose = readFileSync(join(dir, 'docker-compose.yml'), 'utf8');
    expect(compose).not.toMatch(/alpha/i);
    expect(compose).toContain('# begin app beta');
    const config = runCompose(dir, ['--env-file', composeSecrets().file, 'config']);
    expect(config.status).toBe(0);
    const services = Object.keys((parseYaml(config.stdout) as { services: object }).services);
    expect(services).toContain('beta-sidecar');
    expect(services).not.toContain('alpha-sidecar');
    const prettier = spawnSync(join(ROOT, 'node_modules/.bin/prettier'), ['--check', 'docker-compose.yml'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect({ status: prettier.status, out: prettier.stdout }).toEqual({
      status: 0,
      out: expect.stringContaining('All matched files use Prettier code style!'),
    });
  });
});

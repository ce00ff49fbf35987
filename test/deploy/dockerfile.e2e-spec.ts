import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.mjs';

/**
 * The Dockerfile, read as text (no container engine here): one image for any app of the monorepo, chosen by
 * the build argument APP. The example's docker-compose.yml has its own suite beside the example app.
 */
const ROOT = resolve(__dirname, '../..');

/** nest-cli.json's applications: the compose file must build one of them. */
const NEST_CLI = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, { type: string; root: string; entryFile: string }>;
};

describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8'));
  const final = stages[stages.length - 1];

  it('is a multi-stage build that installs and builds in an earlier stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const earlier = stages.slice(0, -1).flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN'));
    expect(earlier.some((i) => /\bnpm ci\b/.test(i.args))).toBe(true);
    expect(earlier.some((i) => /\bnpm run build -- "\$APP"/.test(i.args))).toBe(true);
    for (const stage of stages) expect(stage.from).toMatch(/^node:24[-.\w]*$/);
  });

  it('installs production dependencies only in the final stage (no `node` devDependency at runtime)', () => {
    const installs = final.instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install.args).toMatch(/\bnpm ci\b.*--omit=dev/);
    expect(
      final.instructions.some((i) => i.keyword === 'COPY' && /--from=/.test(i.args) && /\bdist\b/.test(i.args)),
    ).toBe(true);
  });

  it('runs as a non-root user in the final stage', () => {
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0].trim();
    expect(['root', '0', '']).not.toContain(user);
  });

  it('sets the container environment and exposes 3000', () => {
    const env = final.instructions
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
    expect(final.instructions.some((i) => i.keyword === 'EXPOSE' && /\b3000\b/.test(i.args))).toBe(true);
  });

  it("runs the server with the project's Node flags, which this Node accepts (an unknown one would stop it)", () => {
    // scripts/lib/node-flags.mjs is the one list: `npm start` and the bench use it, the image's CMD must match it.
    expect(NODE_FLAGS).toContain('--no-allocation-site-pretenuring');
    const run = spawnSync(process.execPath, [...NODE_FLAGS, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect({ status: run.status, out: run.stdout, err: run.stderr }).toEqual({ status: 0, out: 'ok', err: '' });
  });

  it('requires the build argument APP and refuses to build without it', () => {
    const build = stages[0].instructions;
    expect(build.some((i) => i.keyword === 'ARG' && i.args.trim() === 'APP')).toBe(true);
    const guard = build.find((i) => i.keyword === 'RUN' && i.args.includes('test -n "$APP"'));
    expect(guard?.args).toContain('exit 1');
    const script = guard!.args;
    expect(spawnSync('sh', ['-c', script], { env: { APP: '' }, encoding: 'utf8' }).status).toBe(1);
    expect(spawnSync('sh', ['-c', script], { env: { APP: 'orders' }, encoding: 'utf8' }).status).toBe(0);
  });

  it('starts the entry point that `npm run build -- $APP` produces for any app under apps/', () => {
    const cmds = final.instructions.filter((i) => i.keyword === 'CMD');
    const cmd = JSON.parse(cmds[cmds.length - 1].args) as string[];
    expect(cmd).toEqual(['node', ...NODE_FLAGS, 'dist/main.js']);
    const link = stages[0].instructions.find((i) => i.keyword === 'RUN' && /\bln -s\b/.test(i.args))!;
    const target = /ln -s "([^"]+)" dist\/main\.js/.exec(link.args)![1];
    for (const [app, project] of Object.entries(NEST_CLI.projects).filter(([, p]) => p.root.startsWith('apps/'))) {
      // scripts/start.mjs writes an app to dist/apps/<app>/<entryFile>.js (its tsconfig's outDir is dist/apps/<app>).
      expect(`apps/${app}/${project.entryFile}.js`).toBe(target.replaceAll('$APP', app));
      const outDir = JSON.parse(readFileSync(resolve(ROOT, project.root, 'tsconfig.app.json'), 'utf8')).compilerOptions
        .outDir;
      expect(resolve(ROOT, project.root, outDir)).toBe(resolve(ROOT, 'dist/apps', app));
    }
  });
});

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  instructions: Instruction[];
}

/** Instructions grouped by FROM; comments dropped, continuations joined, global ARG defaults substituted into FROM. */
function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#') || (!pending && !line)) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  if (pending.trim()) logical.push(pending.trim());

  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of logical) {
    const match = /^(\w+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1].toUpperCase();
    const args = match[2].trim();
    if (keyword === 'ARG' && stages.length === 0) {
      const [name, ...value] = args.split('=');
      globalArgs[name.trim()] = value
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1');
    } else if (keyword === 'FROM') {
      const image = args.split(/\s+/).find((word) => !word.startsWith('--')) ?? '';
      const from = image.replace(/\$\{?(\w+)\}?/g, (_, name: string) => globalArgs[name] ?? '');
      stages.push({ from, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return stages;
}

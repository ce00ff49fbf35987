// `npm run app:remove -- <app>`: deletes an app under apps/ the way a team drops the example once it has its own
// server: the folder and its build output, its project in nest-cli.json, and, when it was the default app (the
// one `npm start` and docker-compose.yml run without a name), makes the first remaining app the default; what
// docker-compose.yml holds of the app's own (between `# begin app <app>` and `# end app <app>`) goes too.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { appsUnderApps, outDirOf, readCli } from './lib/projects.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (args.length !== 1 || args[0].startsWith('-')) fail('usage: npm run app:remove -- <app>');
const name = args[0];

const cliPath = join(root, 'nest-cli.json');
const cli = readCli(root);
const apps = appsUnderApps(cli);
const project = cli.projects?.[name];
if (!apps.includes(name)) fail(`"${name}" is not an app under apps/; the apps are: ${apps.join(', ') || 'none'}`);
const rest = apps.filter((n) => n !== name);
if (rest.length === 0) fail(`"${name}" is the only app: generate your own first (npm run g -- mcp-server <name>)`);

// The build output first: where it is comes from the app's own tsconfig, which goes with the folder.
rmSync(outDirOf(root, cli, name), { recursive: true, force: true });
rmSync(join(root, project.root), { recursive: true, force: true });
delete cli.projects[name];
const said = [`removed ${project.root} and its project in nest-cli.json`];
if (cli.root === project.root) {
  const next = cli.projects[rest[0]];
  cli.root = next.root;
  cli.sourceRoot = next.sourceRoot;
  cli.compilerOptions = { ...cli.compilerOptions, tsConfigPath: next.compilerOptions?.tsConfigPath };
  said.push(`the default app is now ${rest[0]}`);
}
await writeFormatted(cliPath, JSON.stringify(cli, null, 2));

const composePath = join(root, 'docker-compose.yml');
if (existsSync(composePath)) {
  const compose = readFileSync(composePath, 'utf8');
  const { text: without, blocks } = withoutAppBlocks(compose, name);
  const changed = without.replaceAll(`\${APP:-${name}}`, `\${APP:-${rest[0]}}`);
  if (changed !== without) said.push(`docker-compose.yml deploys ${rest[0]} when APP is not set`);
  if (blocks > 0) said.push(`removed ${blocks} block${blocks > 1 ? 's' : ''} of ${name}'s own from docker-compose.yml`);
  if (changed !== compose) writeFileSync(composePath, changed);
}
process.stdout.write(`${said.join('; ')}\n`);

/**
 * What belongs to one app in docker-compose.yml (its own services, its replicas' settings) sits between a line
 * `# begin app <name>` and a line `# end app <name>` (anything may follow the name on those lines): both marks and
 * what is between them go with the app. The blank line after a block goes too when the cut would leave it doubled or
 * right under the key that opens the section (`services:`), where Prettier allows none.
 */
function withoutAppBlocks(text, app) {
  const mark = (word) => new RegExp(`^\\s*# ${word} app ${app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
  const out = [];
  let inside = false;
  let cut = false;
  let blocks = 0;
  for (const line of text.split('\n')) {
    if (!inside && mark('begin').test(line)) {
      inside = true;
      blocks++;
    } else if (inside) {
      if (mark('end').test(line)) [inside, cut] = [false, true];
    } else {
      const before = out.at(-1);
      const dropped =
        cut && line.trim() === '' && (before === undefined || !before.trim() || before.trimEnd().endsWith(':'));
      if (!dropped) out.push(line);
      cut = false;
    }
  }
  return { text: out.join('\n'), blocks };
}

/** Written as `prettier --check .` (part of the test command) expects it. */
async function writeFormatted(file, text) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

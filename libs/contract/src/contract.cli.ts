// `npm run contract -- <app>` writes apps/<app>/mcp-contract.json; `npm run contract:check [-- <app>]` compares
// the code with it (every app under apps/ when none is named) and exits 1 on a breaking change. Neither accepts
// a tool, prompt or resource that still publishes a generator's "TODO:" placeholder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkContract, recordDeprecations } from './contract-diff';
import { placeholderProblems } from './contract-placeholders';
import { AppProject, appProjects, buildApp, readContract } from './contract-source';
import { McpContract } from './contract.types';

const USAGE = 'usage: npm run contract -- <app>   |   npm run contract:check [-- <app> ...]';
const CONTRACT_FILE = 'mcp-contract.json';

async function main(argv: string[]): Promise<number> {
  const repo = resolve(process.env.MCP_CONTRACT_REPO ?? process.cwd());
  const [command, ...names] = argv;
  if (command !== 'write' && command !== 'check') return usage(`unknown command ${JSON.stringify(command)}`);
  const apps = appProjects(repo);
  const unknown = names.filter((n) => !apps.some((a) => a.name === n));
  if (unknown.length)
    return usage(`unknown app ${unknown.join(', ')}; the apps under apps/ are: ${apps.map((a) => a.name).join(', ')}`);
  if (command === 'write' && names.length !== 1) return usage('name exactly one app');
  const chosen = names.length ? apps.filter((a) => names.includes(a.name)) : apps;
  const today = new Date().toISOString().slice(0, 10);
  let failed = 0;
  for (const app of chosen) {
    const file = join(repo, app.root, CONTRACT_FILE);
    const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as McpContract) : undefined;
    const current = await readContract(buildApp(repo, app), repo);
    if (command === 'write') {
      // A contract is a promise to clients: one still saying "TODO:" is not recorded.
      const placeholders = placeholderProblems(current);
      for (const problem of placeholders) process.stderr.write(`${app.name}: not recorded: ${problem}\n`);
      if (placeholders.length) {
        failed++;
        continue;
      }
      current.deprecations = recordDeprecations(current, previous, today);
      writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
      process.stderr.write(`${app.name}: wrote ${app.root}/${CONTRACT_FILE} (${summary(current)})\n`);
      continue;
    }
    failed += report(app, previous, current, repo, today) ? 0 : 1;
  }
  return failed ? 1 : 0;
}

function report(
  app: AppProject,
  committed: McpContract | undefined,
  current: McpContract,
  repo: string,
  today: string,
): boolean {
  if (!committed) {
    process.stderr.write(
      `${app.name}: no ${app.root}/${CONTRACT_FILE}; write it with: npm run contract -- ${app.name}\n`,
    );
    return false;
  }
  const changelogFile = join(repo, app.root, 'CHANGELOG.md');
  const changelog = existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : '';
  const verdict = checkContract(committed, current, { today, changelog });
  const problems = [...placeholderProblems(current), ...verdict.problems];
  const notes = verdict.notes;
  for (const note of notes) process.stderr.write(`${app.name}: ${note}\n`);
  for (const problem of problems) process.stderr.write(`${app.name}: BREAKING or incomplete: ${problem}\n`);
  if (problems.length) return false;
  const changed = notes.length > 0 || comparable(committed) !== comparable(current);
  process.stderr.write(
    `${app.name}: contract OK (${summary(current)})${changed ? `; record the changes with: npm run contract -- ${app.name}` : ''}\n`,
  );
  return true;
}

/** A contract without its deprecation records, a missing `skills` (recorded before skills were) read as none. */
const comparable = ({ deprecations: _records, skills, ...rest }: McpContract): string =>
  JSON.stringify({ ...rest, skills: skills ?? [] });

/** "1 tool", "2 tools": the summary reads as a sentence whatever the counts. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const summary = (c: McpContract) =>
  `${c.server.version}: ${counted(c.tools.length, 'tool')}, ${counted(c.prompts.length, 'prompt')}, ` +
  `${counted(c.resources.length, 'resource')}, ${counted(c.resourceTemplates.length, 'template')}, ` +
  `${counted(c.skills?.length ?? 0, 'skill')}`;

function usage(message: string): number {
  process.stderr.write(`${message}\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`contract: ${error.message}\n`);
    process.exit(1);
  },
);

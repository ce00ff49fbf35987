// `npm run g -- <schematic> [name] [options]`: `nest g` with an exit status CI can rely on.
//
// Why a wrapper: @nestjs/cli 12 (actions/generate.action.js) runs the schematic in a child process and, when
// that child exits non-zero, only logs "Failed to execute command: ..." (lib/runners/abstract.runner.js rejects
// with no error, which generateFiles' catch ignores), so `nest g` exits 0 after every refusal. Without --project
// it opens its project picker before any schematic runs; with no terminal the picker aborts and the CLI calls
// process.exit(1) without a word. Nothing in nest-cli.json changes either, and no code of ours runs in that
// process (it loads the collection as JSON; the factories run in the child).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applications } from '../utils/option-rules';
import { checkGenerateArgs, parseGenerateArgs } from './generate-args';

/** The line @nestjs/cli prints when the schematic failed (`MESSAGES.RUNNER_EXECUTION_ERROR`, lib/ui/messages.js). */
const RUNNER_FAILURE = /^\s*Failed to execute command: /;
// eslint-disable-next-line no-control-regex -- the colour codes the Nest CLI may wrap that line in
const COLOUR = /\x1b\[[0-9;]*m/g;

function main(argv: string[]): void {
  const cliFile = join(process.cwd(), 'nest-cli.json');
  const apps = applications(existsSync(cliFile) ? readFileSync(cliFile, 'utf8') : '{}');
  const { refusal, extra } = checkGenerateArgs(parseGenerateArgs(argv), {
    apps,
    interactive: process.stdin.isTTY === true,
  });
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    process.exitCode = 1;
    return;
  }
  // stdin and stdout stay the terminal's (the picker and the CREATE lines); stderr is read for the failure line.
  const nest = spawn(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'generate', ...argv, ...extra], {
    stdio: ['inherit', 'inherit', 'pipe'],
  });
  const chunks: Buffer[] = [];
  nest.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  nest.on('close', (code) => {
    const lines = Buffer.concat(chunks).toString('utf8').replace(COLOUR, '').split('\n');
    const failed = lines.some((line) => RUNNER_FAILURE.test(line));
    // The schematic already said what is wrong; the internal command line the Nest CLI adds helps nobody.
    const kept = lines
      .filter((line) => !RUNNER_FAILURE.test(line))
      .join('\n')
      .trimEnd();
    if (kept) process.stderr.write(`${kept}\n`);
    process.exitCode = code !== 0 ? (code ?? 1) : failed ? 1 : 0;
  });
}

main(process.argv.slice(2));

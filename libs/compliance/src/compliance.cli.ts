// `npm run compliance -- --url <endpoint> [--token <bearer>] [--standard 1.2|2.0] [--format md|json] [--out <file>]
// [--dir <server folder>]`
// checks a running MCP server, written with any framework, against the §18 checklists of the corporate standard
// and prints (or writes) the report. Exit 0: no MUST fails; 1: a MUST fails; 2: bad arguments or no server there.
import { existsSync, writeFileSync } from 'node:fs';
import { USAGE, parseArgs } from './compliance-args';
import { jsonReport, markdownReport, summarize } from './compliance-report';
import { runCompliance } from './compliance-runner';
import { HttpProbe } from './http-probe';

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`compliance: ${args}\n${USAGE}\n`);
    return 2;
  }
  const probe = new HttpProbe(args.url, args.token);
  try {
    await probe.get('/health');
  } catch (error) {
    process.stderr.write(`compliance: no server answers at ${args.url.origin} (${(error as Error).message})\n`);
    return 2;
  }
  if (args.dir && !existsSync(args.dir)) {
    process.stderr.write(`compliance: --dir ${args.dir} does not exist\n`);
    return 2;
  }
  const results = await runCompliance(probe, args.standards, args.dir);
  if (results.length === 0) {
    process.stderr.write(`compliance: ${args.url.href} answers neither initialize nor server/discover\n`);
    return 2;
  }
  const server = args.url.href;
  const report = args.format === 'json' ? jsonReport(server, results) : markdownReport(server, results);
  const { line, mustFailed } = summarize(results);
  if (args.out) {
    writeFileSync(args.out, report);
    process.stdout.write(`${line}\n`);
  } else {
    process.stdout.write(report);
    // JSON on stdout stays one document: its summary line goes beside it (the Markdown report ends with it).
    if (args.format === 'json') process.stderr.write(`${line}\n`);
  }
  return mustFailed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    process.stderr.write(`compliance: ${error.message}\n`);
    process.exitCode = 2;
  },
);

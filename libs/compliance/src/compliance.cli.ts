// `npm run compliance -- <app>` builds an app under apps/ and checks it in its production configuration;
// `npm run compliance -- --url <endpoint> [--token <bearer>] [--issuer-key <file>] [--dir <folder>]` checks a
// running MCP server written with any framework. Both take [--standard 1.2|2.0] [--format md|json] [--out <file>],
// check the §18 checklists of the corporate standard (docs/compliance.md#s18) and print (or write) the report.
// Every answer is read up to a cap and the run has a deadline (--deadline); no redirect is followed.
// Exit 0: no MUST fails; 1: a MUST fails; 2: bad arguments, no server (or the app did not start), or the run stopped
// (an answer over the cap, or the deadline): docs/compliance.md#safety.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppStartError, StartedApp, startApp } from './app-server';
import { TokenMint, readIssuerKey } from './auth/token-mint';
import { CheckOptions } from './check-context';
import { USAGE, parseArgs } from './compliance-args';
import { jsonReport, markdownReport, summarize } from './compliance-report';
import { runCompliance } from './compliance-runner';
import { HttpProbe } from './http-probe';
import { gitCommit, reportHeader, templateVersion } from './report-header';
import { RunGuard, RunStopped } from './run-guard';
import { suiteIn } from './conformance/conformance-suite';

/** A message for stderr, and exit 2: the arguments are wrong, or there is no server to check. */
class Unusable extends Error {}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`compliance: ${args}\n${USAGE}\n`);
    return 2;
  }
  let app: StartedApp | undefined;
  let guard: RunGuard | undefined;
  try {
    const repo = resolve(process.env.MCP_CONTRACT_REPO ?? process.cwd());
    if (args.app) {
      process.stderr.write(`compliance: starting ${args.app} in its production configuration…\n`);
      app = await startApp(repo, args.app);
    }
    const url = app?.url ?? args.url!;
    // The run's bounds start with its first request: in the app form, once the app is up.
    guard = new RunGuard(args.deadlineSec);
    const probe = new HttpProbe(url, app?.token ?? args.token, guard);
    const dir = app?.dir ?? args.dir;
    const options: CheckOptions = {
      dir,
      mint: app?.mint ?? (await mintOf(args.issuerKey)),
      ...(app ? { logs: app.logs, stdio: app.stdio } : {}),
      suite: suiteIn(repo),
      skip: args.skip,
    };
    await reachable(probe, dir);
    const { results, server } = await runCompliance(probe, args.standards, options);
    if (results.length === 0 && !guard.stopped)
      throw new Unusable(`${url.href} answers neither initialize nor server/discover${redirectsOf(guard)}`);
    const header = reportHeader(
      {
        url: url.href,
        ...(args.app ? { app: args.app } : {}),
        ...(dir ? { dir } : {}),
        server,
        ...withCommit(gitCommit(dir)),
        template: templateVersion(repo),
      },
      guard,
    );
    return publish(args, header, results);
  } catch (error) {
    if (!(error instanceof Unusable || error instanceof AppStartError)) throw error;
    process.stderr.write(`compliance: ${error.message}\n`);
    return 2;
  } finally {
    guard?.close();
    await app?.stop();
  }
}

type Args = Exclude<ReturnType<typeof parseArgs>, string>;

/** Prints the report, or writes it to --out and prints its summary line; answers the exit code it stands for. */
function publish(
  args: Args,
  header: ReturnType<typeof reportHeader>,
  results: Parameters<typeof summarize>[0],
): number {
  const report = args.format === 'json' ? jsonReport(header, results) : markdownReport(header, results);
  const { line, mustFailed } = summarize(results, header.stopped);
  if (args.out) {
    writeFileSync(args.out, report);
    process.stdout.write(`${line}\n`);
  } else {
    process.stdout.write(report);
    // JSON on stdout stays one document: its summary line goes beside it (the Markdown report ends with it).
    if (args.format === 'json') process.stderr.write(`${line}\n`);
  }
  // A run that stopped (an answer over the cap, the deadline) is no verdict: exit 2, as for no server at all.
  if (header.stopped) return 2;
  return mustFailed ? 1 : 0;
}

const withCommit = (commit: string | undefined) => (commit ? { commit } : {});

/** The redirects the server answered with, for a message saying why nothing was checked. */
const redirectsOf = (guard: RunGuard) =>
  guard.refusedRedirects.length
    ? ` (it answered with redirects, which the command does not follow: ${guard.refusedRedirects.join('; ')})`
    : '';

async function mintOf(file: string | undefined): Promise<TokenMint | undefined> {
  if (!file) return undefined;
  const key = readIssuerKey(file);
  if (typeof key === 'string') throw new Unusable(key);
  return TokenMint.of(key).catch((error: Error) => {
    throw new Unusable(`--issuer-key ${file}: ${error.message}`);
  });
}

async function reachable(probe: HttpProbe, dir: string | undefined): Promise<void> {
  try {
    await probe.get('/health');
  } catch (error) {
    // An answer over the cap, or the deadline: the run goes on to report it (its first item says it stopped).
    if (error instanceof RunStopped) return;
    throw new Unusable(`no server answers at ${probe.endpoint.origin} (${(error as Error).message})`);
  }
  if (dir && !existsSync(dir)) throw new Unusable(`--dir ${dir} does not exist`);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    process.stderr.write(`compliance: ${error.message}\n`);
    process.exitCode = 2;
  },
);

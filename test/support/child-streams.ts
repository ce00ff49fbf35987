import { ChildProcess } from 'node:child_process';

/**
 * Gives a child's stdio streams an 'error' listener that reports into the captured output. Without one, a
 * stream error (a `read ECONNRESET` when the child exits while bytes it never read wait on its end of a
 * pipe) is an uncaught exception that Jest pins on whichever test runs at that moment, in any later file.
 */
export function reportStreamErrors(child: ChildProcess, report: (line: string) => void): void {
  for (const name of ['stdin', 'stdout', 'stderr'] as const)
    child[name]?.on('error', (e: NodeJS.ErrnoException) => report(`\n[test harness] child ${name}: ${e.message}\n`));
}

// `node scripts/lib/time-report.mjs <phases-file> <suites-file> [<cpu-file>]`: where the test command's time went,
// printed after jest's output and before the totals line. The phases file holds `label<TAB>seconds` lines in the order
// the phases ran (lanes that ran side by side say so in their label); the suites file is
// test/support/timing-reporter.js's (`project<TAB>path<TAB>seconds`, slowest first); the CPU file is
// test/support/suite-cpu.js's (`project<TAB>path<TAB>own<TAB>children`, CPU seconds). A missing or empty file prints
// nothing for its part.
import { existsSync, readFileSync } from 'node:fs';

const SLOWEST = 15;
const [phasesFile, suitesFile, cpuFile] = process.argv.slice(2);

const rows = (file) =>
  file && existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t'))
    : [];

const phases = rows(phasesFile);
if (phases.length > 0) {
  console.log('\nSeconds per phase:');
  for (const [label, seconds] of phases) console.log(`  ${Number(seconds).toFixed(1).padStart(7)}  ${label}`);
}
const suites = rows(suitesFile);
if (suites.length > 0) {
  const total = suites.reduce((sum, [, , seconds]) => sum + Number(seconds), 0);
  console.log(
    `\nThe ${Math.min(SLOWEST, suites.length)} slowest of ${suites.length} suites (seconds; all suites: ${total.toFixed(0)}):`,
  );
  for (const [project, path, seconds] of suites.slice(0, SLOWEST)) {
    console.log(`  ${Number(seconds).toFixed(1).padStart(7)}  ${project.padEnd(12)} ${path}`);
  }
}
const cpu = rows(cpuFile)
  .map(([project, path, own, children]) => ({ project, path, own: Number(own), children: Number(children) }))
  .sort((a, b) => b.own + b.children - (a.own + a.children));
if (cpu.length > 0) {
  const own = cpu.reduce((sum, s) => sum + s.own, 0);
  const children = cpu.reduce((sum, s) => sum + s.children, 0);
  console.log(
    `\nThe ${Math.min(SLOWEST, cpu.length)} suites using the most CPU (seconds: the jest worker's own + the processes ` +
      `the suite started; all suites: ${own.toFixed(0)} + ${children.toFixed(0)}):`,
  );
  for (const s of cpu.slice(0, SLOWEST)) {
    const split = `${s.own.toFixed(1)} + ${s.children.toFixed(1)}`;
    console.log(
      `  ${(s.own + s.children).toFixed(1).padStart(7)}  ${split.padEnd(15)} ${s.project.padEnd(12)} ${s.path}`,
    );
  }
}

// `node scripts/lib/time-report.mjs <phases-file> <suites-file>`: where the test command's time went, printed after
// jest's output and before the totals line. The phases file holds `label<TAB>seconds` lines in the order the phases
// ran (lanes that ran side by side say so in their label); the suites file is test/support/timing-reporter.js's
// (`project<TAB>path<TAB>seconds`, slowest first). A missing or empty file prints nothing for its part.
import { existsSync, readFileSync } from 'node:fs';

const SLOWEST = 15;
const [phasesFile, suitesFile] = process.argv.slice(2);

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

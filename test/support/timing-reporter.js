/**
 * Where the jest run's time went: writes one `project<TAB>path<TAB>seconds` line per suite, slowest first, to the file
 * `TEST_TIMING_FILE` names; the test script prints the slowest of them after jest's own summary and before its
 * totals line (scripts/lib/time-report.mjs). Without that variable it does nothing.
 */
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');

class TimingReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
    this.suites = [];
  }

  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    const project = test.context.config.displayName?.name ?? '';
    this.suites.push({ project, path: relative(this.root, result.testFilePath), seconds: (end - start) / 1000 });
  }

  onRunComplete() {
    const file = process.env.TEST_TIMING_FILE;
    if (!file) return;
    const lines = [...this.suites]
      .sort((a, b) => b.seconds - a.seconds)
      .map((s) => `${s.project}\t${s.path}\t${s.seconds.toFixed(3)}\n`);
    writeFileSync(file, lines.join(''));
  }
}

module.exports = TimingReporter;

/**
 * Writes the plain totals line CI reads ("N passed, N failed") to a file, so the test script can
 * print it last whatever jest prints.
 */
const { writeFileSync } = require('node:fs');

class CountReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed`;
    const file = process.env.TEST_COUNT_FILE;
    if (file) writeFileSync(file, `${line}\n`);
  }
}
module.exports = CountReporter;

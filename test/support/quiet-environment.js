/**
 * jest's Node environment, quiet: what Nest's logger prints while a test runs is held and written out only when
 * that test fails, so the test command shows jest's summary and failures rather than every server's log lines.
 * `quiet-logger.js` (a setup file) routes Nest's logger into `globalThis.__mcpHeldLogs`.
 */
const { TestEnvironment } = require('jest-environment-node');
const { measureSuite } = require('./suite-cpu');

class QuietEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.endMeasure = measureSuite(config.projectConfig, context.testPath);
  }

  async setup() {
    await super.setup();
    this.global.__mcpHeldLogs = [];
  }

  async teardown() {
    await super.teardown();
    this.endMeasure();
  }

  handleTestEvent(event) {
    const held = this.global.__mcpHeldLogs;
    if (event.name === 'test_start') held.length = 0;
    if (event.name === 'test_done' && event.test.errors.length > 0 && held.length > 0) {
      process.stderr.write(`\n--- Nest log of the failed test "${event.test.name}" ---\n${held.join('')}--- end ---\n`);
    }
    if (event.name === 'test_done') held.length = 0;
  }
}

module.exports = QuietEnvironment;

// Starts the official conformance suite's CLI with the URL to test taken from the environment
// (COMPLIANCE_SUITE_URL), not from the command line: the URL holds the auth proxy's per-run secret, and a process's
// command line can be read by every local user (ps), its environment only by the same user.
// Usage: COMPLIANCE_SUITE_CLI=<suite>/dist/index.js COMPLIANCE_SUITE_URL=<url> node suite-launcher.js [suite options]
import { pathToFileURL } from 'node:url';

const cli = process.env.COMPLIANCE_SUITE_CLI;
const url = process.env.COMPLIANCE_SUITE_URL;
if (!cli || !url) {
  process.stderr.write('suite-launcher: COMPLIANCE_SUITE_CLI and COMPLIANCE_SUITE_URL are required\n');
  process.exit(2);
}
// The suite reads its arguments from process.argv when it loads: they are set here, the URL among them.
process.argv = [process.argv[0], cli, 'server', '--url', url, ...process.argv.slice(2)];
delete process.env.COMPLIANCE_SUITE_URL;
import(pathToFileURL(cli).href).catch((error: Error) => {
  process.stderr.write(`suite-launcher: ${error.message}\n`);
  process.exit(2);
});

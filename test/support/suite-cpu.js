/**
 * The CPU a suite costs, for the test command's report: the jest worker's own (the suite's modules, in-process apps,
 * clients) and that of the processes it started and reaped (servers, builds, CLIs), read from /proc. The suite's
 * wall time says little on a loaded 2-core machine; its CPU seconds say what it takes from the others. Appends
 * `project<TAB>path<TAB>own<TAB>children` to the file `TEST_CPU_FILE` names; without it, or off Linux, does nothing.
 */
const { appendFileSync, readFileSync } = require('node:fs');
const { relative } = require('node:path');

/** CLK_TCK on Linux: /proc reports the children's CPU in hundredths of a second. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of this process's reaped children (fields 16 and 17 of /proc/self/stat). */
function childrenSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** Starts measuring; the returned function appends the suite's line. */
function measureSuite(config, testPath) {
  const file = process.env.TEST_CPU_FILE;
  if (!file || process.platform !== 'linux') return () => {};
  const own = process.cpuUsage();
  const children = childrenSeconds();
  return () => {
    const used = process.cpuUsage(own);
    const line = [
      config.displayName?.name ?? '',
      relative(config.rootDir, testPath),
      ((used.user + used.system) / 1e6).toFixed(2),
      (childrenSeconds() - children).toFixed(2),
    ];
    appendFileSync(file, `${line.join('\t')}\n`);
  };
}

module.exports = { measureSuite };

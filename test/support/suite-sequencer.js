/**
 * jest's order of suites, told what it cannot know on a fresh clone. jest starts the suites it has timings for
 * (its cache, from an earlier run on this machine) longest first; without them it goes by file size, and the
 * longest suites here are short files (a copy of the repository, builds, the conformance and compliance tools):
 * started late, one of them runs alone at the end while the other worker idles for minutes. So, for a suite
 * without a timing, the time its author allowed it (the largest `jest.setTimeout(n)` or hook/test timeout
 * `}, n)` in the file) ranks it first when that is two minutes or more; the rest keep jest's own order.
 * Only the order changes: every suite still runs, with the same workers and timeouts.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { readFileSync } = require('node:fs');

const LONG_MS = 120_000;
const DECLARED = /(?:setTimeout\(|\}, )([0-9_]{6,})\)/g;

/** The largest timeout the suite declares, in ms, when two minutes or more; 0 otherwise. */
function declaredBudget(path) {
  let largest = 0;
  for (const [, digits] of readFileSync(path, 'utf8').matchAll(DECLARED))
    largest = Math.max(largest, Number(digits.replaceAll('_', '')));
  return largest >= LONG_MS ? largest : 0;
}

class SuiteSequencer extends Sequencer {
  sort(tests) {
    const budgets = new Map();
    const budget = (test) => {
      if (!budgets.has(test.path)) budgets.set(test.path, declaredBudget(test.path));
      return budgets.get(test.path);
    };
    const sizes = new Map();
    const size = (test) => {
      if (!sizes.has(test.path)) sizes.set(test.path, test.context.hasteFS.getSize(test.path) ?? 0);
      return sizes.get(test.path);
    };
    for (const test of tests) test.duration = this.time(test);
    // jest's own comparison (failed first, then the suites without a timing, then the longest), with the declared
    // budget ahead of the file size for the suites without a timing.
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return b.duration - a.duration;
      return budget(b) - budget(a) || size(b) - size(a);
    });
  }
}

module.exports = SuiteSequencer;

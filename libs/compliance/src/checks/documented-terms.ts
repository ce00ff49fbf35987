/**
 * How a description or a README says what the standard asks it to say, in the ordinary ways people write it. Each
 * test is a small list of phrasings (not one spelling), so "times out after 10 s" documents a timeout as well as
 * "Timeout: 10 s".
 */

/** A duration: "10 s", "30 seconds", "500 ms", "2 min", "1.5 h", "ten seconds" is left to the reviewer. */
const DURATION = String.raw`\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b`;

const TIMEOUT: RegExp[] = [
  // timeout, time-out, time out, timeouts; "times out", "timed out", "timing out"
  /\btime[\s-]?outs?\b/i,
  /\btim(?:es|ed|ing)[\s-]out\b/i,
  // time limit, time-limited, deadline
  /\btime[\s-]?limit(?:s|ed)?\b/i,
  /\bdeadlines?\b/i,
  // "within 30 seconds", "at most 10 s", "no longer than 2 min", "takes up to 5 s"
  new RegExp(String.raw`\b(?:within|at most|no (?:more|longer) than|up to|under)\s+${DURATION}`, 'i'),
  // "gives up after 10 s", "is cancelled after 30 s", "aborts after 1 min", "stops after 5 s"
  new RegExp(
    String.raw`\b(?:gives? up|(?:is |are |gets? )?(?:cancel+ed|aborted|stopped|killed|terminated)|aborts?|stops?|fails?|expires?)\s+after\s+${DURATION}`,
    'i',
  ),
];

/** True when `text` says how long a call may take before it is given up: a timeout, in any ordinary phrasing. */
export function documentsTimeout(text: string): boolean {
  return TIMEOUT.some((re) => re.test(text));
}

/** True when `text` says whether, or when, a call may be retried ("Retry: safe", "retries", "retried", "retriable"). */
export function documentsRetry(text: string): boolean {
  return /\bretr(?:y|ies|ied|ying|iable|yable)\b|\bre-?try\b/i.test(text);
}

import { ItemResult, StandardVersion } from './compliance.types';

const MARK: Record<ItemResult['status'], string> = {
  pass: 'pass',
  fail: '**FAIL**',
  not_applicable: 'n/a',
  manual: 'manual',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const evidenceOf = (r: ItemResult) =>
  [...r.evidence, ...(r.reviewer ? [`**For the reviewer:** ${r.reviewer}`] : [])].join('; ');

/** Counts per standard, and whether a MUST failed (the review's verdict). */
export function summarize(results: ItemResult[]): { line: string; mustFailed: boolean } {
  const parts: string[] = [];
  let mustFailed = false;
  for (const standard of [...new Set(results.map((r) => r.standard))]) {
    const mine = results.filter((r) => r.standard === standard);
    const count = (s: ItemResult['status']) => mine.filter((r) => r.status === s).length;
    const must = mine.filter((r) => r.status === 'fail' && r.level === 'MUST').length;
    if (must) mustFailed = true;
    parts.push(
      `v${standard}: ${count('pass')} pass, ${count('fail')} fail (${must} MUST), ${count('manual')} manual, ` +
        `${count('not_applicable')} n/a`,
    );
  }
  // The failing MUSTs by id, so a terminal (with the report in a file) says where to look.
  const failing = [...new Set(results.filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => r.id))];
  const verdict = mustFailed ? ` — a MUST fails: ${failing.join(', ')}` : '';
  return { line: `compliance: ${parts.join('; ')}${verdict}`, mustFailed };
}

/** The report a reviewer reads: one table per checklist, the evidence of each item, the summary last. */
export function markdownReport(server: string, results: ItemResult[]): string {
  const out = [`# MCP compliance report`, '', `Server: ${server}`, `Checked: ${new Date().toISOString()}`, ''];
  out.push(
    'A failed MUST fails the review; a failed SHOULD needs its reason in the README. "pass (in part)": what a machine',
    'can check passed, and "For the reviewer" says what a person still judges; "manual": a person judges the item;',
    '"n/a": the item does not apply, for the reason given. The evidence is the request sent and the part of the answer',
    'that decides, with tokens masked.',
    '',
  );
  for (const standard of [...new Set(results.map((r) => r.standard))] as StandardVersion[]) {
    out.push(`## Corporate MCP standard v${standard}, §18`, '', '| Status | Level | Section | Item | Evidence |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const r of results.filter((x) => x.standard === standard))
      out.push(
        `| ${MARK[r.status]}${r.reviewer ? ' (in part)' : ''} | ${r.level} | ${cell(r.section)} | \`${r.id}\`: ${cell(r.requires)} | ${cell(evidenceOf(r))} |`,
      );
    out.push('');
  }
  out.push(summarize(results).line, '');
  return out.join('\n');
}

/** The same for CI: the items, then the summary. */
export function jsonReport(server: string, results: ItemResult[]): string {
  const { line, mustFailed } = summarize(results);
  return `${JSON.stringify({ server, items: results, summary: line, mustFailed }, null, 2)}\n`;
}

import { ItemResult, StandardVersion } from './compliance.types';
import { ReportHeader } from './report-header';

const MARK: Record<ItemResult['status'], string> = {
  pass: 'pass',
  fail: '**FAIL**',
  not_applicable: 'n/a',
  manual: 'manual',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const evidenceOf = (r: ItemResult) =>
  [
    ...r.evidence,
    ...(r.negativeOnly ? [`**Negative probe only:** ${r.negativeOnly}`] : []),
    ...(r.reviewer ? [`**For the reviewer:** ${r.reviewer}`] : []),
  ].join('; ');

/** The status cell: "(in part)" when a person still judges, "(negative probe)" when only a refusal was seen. */
const statusOf = (r: ItemResult) =>
  `${MARK[r.status]}${r.reviewer ? ' (in part)' : ''}${r.negativeOnly ? ' (negative probe)' : ''}`;

/**
 * Counts per standard, and whether a MUST failed (the review's verdict); when the run stopped (`stopped`), the line
 * says so first: the counts are then no verdict.
 */
export function summarize(results: ItemResult[], stopped?: string): { line: string; mustFailed: boolean } {
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
  if (stopped)
    return {
      line: `compliance: the run stopped: ${stopped}${parts.length ? `; ${parts.join('; ')}` : ''}`,
      mustFailed,
    };
  // The failing MUSTs by id, so a terminal (with the report in a file) says where to look.
  const failing = [...new Set(results.filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => r.id))];
  const verdict = mustFailed ? ` — a MUST fails: ${failing.join(', ')}` : '';
  return { line: `compliance: ${parts.join('; ')}${verdict}`, mustFailed };
}

/** The header: what was checked (name, version, commit), with what, when, how the run was bounded, and its stop. */
function headerLines(h: ReportHeader): string[] {
  const commit = h.commit ?? (h.dir ? 'none (the folder is not in a git checkout)' : 'unknown (give --dir)');
  const lines = [
    `- Server: ${h.server.name ?? '(states no name)'} ${h.server.version ?? '(states no version)'}${h.app ? ` (app \`${h.app}\`)` : ''}`,
    `- Endpoint: ${h.url}`,
    `- Commit: ${commit}`,
    `- Checked with: ${h.template.name} ${h.template.version} (npm run compliance), ${h.checkedAt}`,
    `- Bounds: every answer read up to ${h.limits.maxAnswerBytes / 1_048_576} MiB; the run's deadline ${h.limits.deadlineSec} s`,
    '',
  ];
  if (h.stopped)
    lines.push(
      `**The run stopped: ${h.stopped}.** The items after that point were not checked: this report is no verdict (exit 2).`,
      '',
    );
  if (h.redirects.length)
    lines.push(
      `**Redirects not followed** (the command follows none, so no other server is graded): ${h.redirects.join('; ')}.`,
      '',
    );
  return lines;
}

/** The report a reviewer reads: one table per checklist, the evidence of each item, the summary last. */
export function markdownReport(header: ReportHeader, results: ItemResult[]): string {
  const out = [`# MCP compliance report`, '', ...headerLines(header)];
  out.push(
    'A failed MUST fails the review; a failed SHOULD needs its reason in the README. "pass (in part)": what a machine',
    'can check passed, and "For the reviewer" says what a person still judges; "manual": a person judges the item;',
    '"n/a": the item does not apply, for the reason given; "pass (negative probe)": only a refusal was seen (a name that',
    'does not exist, say), because the command sends nothing that could change something, and the cell says what a',
    'working call was not seen doing. The evidence is the request sent and the part of the answer that decides, with',
    'tokens masked.',
    '',
  );
  for (const standard of [...new Set(results.map((r) => r.standard))] as StandardVersion[]) {
    out.push(`## Corporate MCP standard v${standard}, §18`, '', '| Status | Level | Section | Item | Evidence |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const r of results.filter((x) => x.standard === standard))
      out.push(
        `| ${statusOf(r)} | ${r.level} | ${cell(r.section)} | \`${r.id}\`: ${cell(r.requires)} | ${cell(evidenceOf(r))} |`,
      );
    out.push('');
  }
  out.push(summarize(results, header.stopped).line, '');
  return out.join('\n');
}

/** The same for CI: the items, then the summary. */
export function jsonReport(header: ReportHeader, results: ItemResult[]): string {
  const { line, mustFailed } = summarize(results, header.stopped);
  const server = header.app ? `${header.app} (${header.url})` : header.url;
  return `${JSON.stringify({ server, header, items: results, summary: line, mustFailed, ...(header.stopped ? { stopped: header.stopped } : {}) }, null, 2)}\n`;
}

/** The two versions of the corporate standard: v1.2 for the 2025 protocol era, v2.0 for 2026-07-28. */
export type StandardVersion = '1.2' | '2.0';

/** How binding an item is: a failed MUST fails the review; a SHOULD needs a reason in the README. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** One item of a §18 checklist (docs/compliance.md#s18), in our words (users do not have the standard's text). */
export interface ChecklistItem {
  /** Stable id, the same in both standards where they ask the same (`auth.www-authenticate`). */
  id: string;
  standards: StandardVersion[];
  /** The checklist's group (`Transport and HTTP`, `Authentication`, …). */
  section: string;
  level: Level;
  requires: string;
}

/** What a check found: `manual` when a person must judge it, `not_applicable` with the reason. */
export type ItemStatus = 'pass' | 'fail' | 'not_applicable' | 'manual';

/** A check's verdict with what proves it: the requests sent and the parts of the answers that matter. */
export interface Verdict {
  status: ItemStatus;
  evidence: string[];
  /**
   * For an item a machine can check only in part (a judgement call): what the tool checked passed, and this is what
   * a person must still judge. Never set on a failure.
   */
  reviewer?: string;
  /**
   * For a pass that rests only on a negative probe (a name that does not exist, a refused subscription): what a
   * working call would have shown and was not seen, because the command calls nothing that may change something.
   */
  negativeOnly?: string;
}

/** One line of the report, for one standard. */
export interface ItemResult extends Verdict {
  id: string;
  standard: StandardVersion;
  section: string;
  level: Level;
  requires: string;
}

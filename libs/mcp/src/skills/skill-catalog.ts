/** One file of a skill's manifest: its URI, `sha256:<hex>` of its raw bytes, and their count. @internal */
export interface SkillResourceEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A `Skill` entry (`skills/list`, `skills/get`): the SKILL.md URI, its frontmatter verbatim, its files. @internal */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly SkillResourceEntry[];
}

/** A served skill file, held in memory from boot: its bytes and, for UTF-8 text types, its text. @internal */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  readonly text?: string;
}

/** A direct child of a skill directory (`resources/directory/read`). @internal */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

/**
 * The skills read at boot, looked up by exact URI only: a request never names a path, so it cannot reach a file
 * outside them, and a read never touches the filesystem.
 * @internal
 */
export class SkillCatalog {
  /** No skills configured: nothing declared, nothing served. */
  static readonly EMPTY = new SkillCatalog([], new Map(), new Map());

  private readonly bySkillUri: ReadonlyMap<string, SkillEntry>;

  constructor(
    /** Every skill, ordered by URI. */
    readonly skills: readonly SkillEntry[],
    private readonly files: ReadonlyMap<string, SkillFile>,
    private readonly directories: ReadonlyMap<string, readonly DirectoryChild[]>,
  ) {
    this.bySkillUri = new Map(skills.map((s) => [s.uri, s]));
  }

  /** How many skills are served. */
  get size(): number {
    return this.skills.length;
  }

  /** The skill whose SKILL.md is at `uri`. */
  skill(uri: string): SkillEntry | undefined {
    return this.bySkillUri.get(uri);
  }

  /** The skill file at `uri`. */
  file(uri: string): SkillFile | undefined {
    return this.files.get(uri);
  }

  /** The direct children of the skill directory at `uri` (no trailing slash). */
  directory(uri: string): readonly DirectoryChild[] | undefined {
    return this.directories.get(uri);
  }
}

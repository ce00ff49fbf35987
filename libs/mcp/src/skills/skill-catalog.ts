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

/**
 * A served skill file, prepared at boot: its digest and size, its text for UTF-8 text types, and the very content item
 * `resources/read` answers with (`text`, or a base64 `blob`), so a read encodes nothing. @internal
 */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string;
  readonly digest: string;
  readonly size: number;
  readonly text?: string;
  readonly content: Readonly<{ uri: string; mimeType: string } & ({ text: string } | { blob: string })>;
}

/** A direct child of a skill directory (`resources/directory/read`). @internal */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

/** Whether the caller holds every one of these scopes (always true without a principal: stdio, auth off). @internal */
export type ScopeCheck = (required: readonly string[]) => boolean;

const EVERYONE: ScopeCheck = () => true;

/**
 * The skills read at boot, looked up by exact URI only: a request never names a path, so it cannot reach a file
 * outside them, and a read never touches the filesystem. A skill may require scopes: a caller without them is
 * answered as if it did not exist, and so are its files and folders unless another skill it may see holds them too.
 * @internal
 */
export class SkillCatalog {
  /** No skills configured: nothing declared, nothing served. */
  static readonly EMPTY = new SkillCatalog([], new Map(), new Map());

  private readonly bySkillUri: ReadonlyMap<string, SkillEntry>;
  /** The skills (their SKILL.md URIs) holding each file and folder, by URI. */
  private readonly owners = new Map<string, string[]>();

  constructor(
    /** Every skill, ordered by URI. */
    readonly skills: readonly SkillEntry[],
    private readonly files: ReadonlyMap<string, SkillFile>,
    private readonly directories: ReadonlyMap<string, readonly DirectoryChild[]>,
    /** The scopes each skill requires, by SKILL.md URI; none when absent. */
    private readonly scopes: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.bySkillUri = new Map(skills.map((s) => [s.uri, s]));
    const roots = skills.map((s) => ({ skill: s.uri, dir: s.uri.slice(0, -'/SKILL.md'.length) }));
    for (const uri of [...files.keys(), ...directories.keys()]) {
      const holders = roots.filter((r) => uri === r.dir || uri.startsWith(`${r.dir}/`)).map((r) => r.skill);
      this.owners.set(uri, holders);
    }
  }

  /**
   * This catalogue with `other`'s skills added, ordered by URI again. Their files and folders must not overlap (the
   * computed skills' boot checks refuse a skill at, inside or around another). @internal
   */
  with(other: SkillCatalog): SkillCatalog {
    if (other.size === 0) return this;
    return new SkillCatalog(
      [...this.skills, ...other.skills].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)),
      new Map([...this.files, ...other.files]),
      new Map([...this.directories, ...other.directories]),
      new Map([...this.scopes, ...other.scopes]),
    );
  }

  /** Every scope some skill requires. */
  requiredScopes(): string[] {
    return [...this.scopes.values()].flat();
  }

  /** The scopes the skill whose SKILL.md is at `uri` requires. */
  scopesOf(uri: string): readonly string[] {
    return this.scopes.get(uri) ?? [];
  }

  /** The skills a caller may see, ordered by URI. */
  visibleSkills(may: ScopeCheck = EVERYONE): readonly SkillEntry[] {
    return this.skills.filter((s) => this.sees(s.uri, may));
  }

  private sees(skillUri: string, may: ScopeCheck): boolean {
    const required = this.scopesOf(skillUri);
    return required.length === 0 || may(required);
  }

  /** Whether some skill holding the file or folder at `uri` is visible to the caller. */
  private reaches(uri: string, may: ScopeCheck): boolean {
    return (this.owners.get(uri) ?? []).some((skill) => this.sees(skill, may));
  }

  /** How many skills are served. */
  get size(): number {
    return this.skills.length;
  }

  /** The skill whose SKILL.md is at `uri`, when the caller may see it. */
  skill(uri: string, may: ScopeCheck = EVERYONE): SkillEntry | undefined {
    const skill = this.bySkillUri.get(uri);
    return skill && this.sees(uri, may) ? skill : undefined;
  }

  /** The skill file at `uri`, when the caller may see a skill holding it. */
  file(uri: string, may: ScopeCheck = EVERYONE): SkillFile | undefined {
    const file = this.files.get(uri);
    return file && this.reaches(uri, may) ? file : undefined;
  }

  /** The direct children of the skill directory at `uri` (no trailing slash), when the caller may see a skill there. */
  directory(uri: string, may: ScopeCheck = EVERYONE): readonly DirectoryChild[] | undefined {
    const children = this.directories.get(uri);
    return children && this.reaches(uri, may) ? children : undefined;
  }
}

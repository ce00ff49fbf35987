import { extname } from 'node:path';

/** The Skills extension's identifier (SEP-2640), declared in capabilities (`extensions`). @internal */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The URI scheme skills are served under. @internal */
export const SKILL_SCHEME = 'skill://';

/** The `mimeType` of a directory resource (`resources/directory/read`). @internal */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/**
 * The limits of a skills folder: per skill, what every conforming host accepts (files, SKILL.md included, and
 * bytes); for the whole folder, a bound on the walk at boot (files and folders met, and bytes), checked as it goes.
 * @internal
 */
export interface SkillLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly maxRootEntries: number;
  readonly maxRootBytes: number;
}

/**
 * The extension's limits, 512 files and 16 MiB per skill; and the walk's, 4,096 files and folders and 64 MiB under
 * the root (docs/skills.md). @internal
 */
export const SKILL_LIMITS: SkillLimits = {
  maxFiles: 512,
  maxBytes: 16 * 1024 * 1024,
  maxRootEntries: 4_096,
  maxRootBytes: 64 * 1024 * 1024,
};

/** The Agent Skills naming rule: 1-64 of a-z, 0-9 and `-`, no leading, trailing or doubled hyphen. @internal */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
};

const TEXT_TYPES = new Set(['application/json', 'application/yaml', 'application/xml', 'image/svg+xml']);

/** The `mimeType` of a skill file by its extension; `application/octet-stream` for the rest. @internal */
export function mimeTypeOf(fileName: string): string {
  return MIME_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether a file of this type is served as `text` (when its bytes are UTF-8) rather than a base64 `blob`. @internal */
export function isTextType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType);
}

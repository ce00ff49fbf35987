import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An app name no project in `dir` uses yet: `base`, else `base-2`, `base-3`, … Suites that generate a server
 * in a temporary copy take their name from here, so a team's own app called `billing` or `acme` never collides.
 */
export function freeAppName(dir: string, base: string): string {
  const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8')) as { projects?: Record<string, unknown> };
  const taken = (name: string) => name in (cli.projects ?? {}) || existsSync(join(dir, 'apps', name));
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version of the app: the nearest package.json above the entry script, else above the working
 * directory. McpModule's default `version`, and what `startMcpTelemetry` callers should pass.
 */
export function packageVersion(): string {
  const starts = [require.main?.filename ? dirname(require.main.filename) : undefined, process.cwd()];
  for (const start of starts) {
    let dir = start;
    while (dir) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
        if (version) return version;
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return '0.0.0';
}

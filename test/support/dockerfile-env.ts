import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The environment the final stage of the repository's Dockerfile sets (ENV lines): where every container starts. */
export function imageEnvironment(): Record<string, string> {
  const text = readFileSync(resolve(__dirname, '../../Dockerfile'), 'utf8');
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of finalStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const pair of line.slice(4).trim().split(/\s+/)) {
      const [k, ...v] = pair.split('=');
      env[k] = v.join('=');
    }
  }
  return env;
}

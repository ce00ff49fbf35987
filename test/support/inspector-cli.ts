import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The Inspector's own bin (`mcp-inspector`, the launcher); `--cli` selects its scriptable CLI. Needs Node >= 22.19. */
const PKG_JSON = require.resolve('@modelcontextprotocol/inspector/package.json');
export const INSPECTOR_BIN = join(
  dirname(PKG_JSON),
  (require(PKG_JSON) as { bin: Record<string, string> }).bin['mcp-inspector'],
);

export interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** stdout parsed as JSON (`--format json` prints one object: `{"result": ...}`); undefined if it is not JSON. */
  json: any;
  /** The error envelope the CLI writes to stderr on failure (`{"error":{"code","message"}}`), if any. */
  error: { code: string; message: string } | undefined;
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A throwaway HOME for the Inspector, which keeps its catalog, client config and OAuth state under ~/.mcp-inspector.
 * It reads no XDG variables; MCP_* variables that would redirect its storage are dropped from the child's environment.
 */
export function inspectorHome(): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Runs `mcp-inspector --cli ...args` on this Node (no shell) and collects its output; kills it after `timeoutMs`. */
export function runInspector(args: string[], home: string, timeoutMs = 20_000): Promise<InspectorRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(MCP_|INSPECTOR_)/.test(k)) env[k] = v;
  Object.assign(env, { HOME: home, USERPROFILE: home, NODE_OPTIONS: '', NO_COLOR: '1' });
  const started = Date.now();
  const child = spawn(process.execPath, [INSPECTOR_BIN, '--cli', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`inspector timed out after ${timeoutMs} ms: ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const error = parse(stderr.trim())?.error;
      resolve({ code, stdout, stderr, ms: Date.now() - started, json: parse(stdout), error });
    });
  });
}

/** A successful `--format json` run: exit 0, one `{"result": ...}` object on stdout, nothing on stderr (-q). */
export function inspectorResult(run: InspectorRun): any {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.json).toEqual({ result: expect.any(Object) });
  return run.json.result;
}

import { spawn } from 'node:child_process';

/** What a server started over stdio answered to `initialize`, or why it did not. */
export interface StdioAnswer {
  /** The JSON-RPC message answering `initialize`, when one came. */
  message?: { result?: { protocolVersion?: unknown; serverInfo?: { name?: unknown; version?: unknown } } };
  /** What went wrong instead (no answer in time, a line that is not JSON, an early exit). */
  problem?: string;
}

const TIMEOUT_MS = 30_000;

/**
 * Starts a built server with `--stdio` and the given environment, sends `initialize` as one line on stdin and
 * reads the first line of stdout: over stdio, stdout carries MCP messages only, so that line must be the answer.
 */
export function initializeOverStdio(entry: string, cwd: string, env: NodeJS.ProcessEnv): Promise<StdioAnswer> {
  const child = spawn(process.execPath, [entry, '--stdio'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const request = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'compliance', version: '1' } },
  };
  return new Promise<StdioAnswer>((resolve) => {
    let out = '';
    const done = (answer: StdioAnswer) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(answer);
    };
    const timer = setTimeout(() => done({ problem: `no answer within ${TIMEOUT_MS / 1000} s` }), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end < 0) return;
      const line = out.slice(0, end);
      try {
        done({ message: JSON.parse(line) as StdioAnswer['message'] });
      } catch {
        done({ problem: `stdout's first line is not a JSON-RPC message: ${line.slice(0, 120)}` });
      }
    });
    child.once('exit', (code) => done({ problem: `the server exited (${code}) before answering` }));
    child.stdin.on('error', () => undefined);
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

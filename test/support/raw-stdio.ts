import { ChildProcess, spawn } from 'node:child_process';
import { STDIO_SERVER, WireMessage, serverEnv } from './stdio-clients';
import { waitFor } from './wait';
import { MODERN_META } from './modern-post';
import { reportStreamErrors } from './child-streams';

/**
 * The built desk over stdio, driven by hand: newline-delimited JSON in, stdout and stderr
 * captured verbatim so tests can check the framing itself.
 */
export class RawStdioServer {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor() {
    this.child = spawn(STDIO_SERVER.command, STDIO_SERVER.args, { env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    reportStreamErrors(this.child, (line) => (this.stderr += line));
    this.exited = new Promise((r) => this.child.once('exit', (code, signal) => r({ code, signal })));
  }

  /** Writes one line: a value as JSON, or a string verbatim. */
  send(message: unknown): void {
    this.child.stdin!.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** Complete stdout lines so far (a trailing partial line is left out). */
  lines(): string[] {
    const parts = this.stdout.split('\n');
    parts.pop();
    return parts;
  }

  /** Complete stdout lines parsed as JSON; throws on a line that is not JSON. */
  messages(): WireMessage[] {
    return this.lines().map((l) => JSON.parse(l) as WireMessage);
  }

  /** Waits for the response (result or error) to `id`. */
  async response(id: string | number | null, timeoutMs = 5000): Promise<WireMessage> {
    const find = () => this.messages().find((m) => m.id === id && ('result' in m || 'error' in m));
    try {
      await waitFor(() => find() !== undefined, timeoutMs, `a response to id ${JSON.stringify(id)}`);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`, { cause: e });
    }
    return find()!;
  }

  /**
   * Resolves once the server answers a 2026-07-28 `server/discover` probe (id `boot`), i.e. once it has booted: a
   * test that then waits for what its own requests cause waits for that alone, not for the process start and Nest's
   * boot besides, which a busy machine (two cores shared with other suites' servers) stretches past 5 s. A probe
   * changes nothing: the server keeps no state for it.
   */
  async booted(): Promise<void> {
    this.send({
      jsonrpc: '2.0',
      id: 'boot',
      method: 'server/discover',
      params: { _meta: MODERN_META },
    });
    await this.response('boot', 30_000);
  }

  /**
   * Sends initialize and notifications/initialized; resolves with the initialize result. Its wait includes the
   * server's boot, which a busy CI machine (two cores shared with other suites' servers) can stretch past 5 s.
   */
  async initialize(id: string | number = 1): Promise<WireMessage> {
    this.send({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-stdio', version: '1.0.0' } },
    });
    const res = await this.response(id, 30_000);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return res;
  }

  /** Closes stdin: the server should drain and exit by itself. */
  endInput(): void {
    this.child.stdin!.end();
  }

  /** Last resort for a test that failed midway. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { RawStdioServer } from './raw-stdio';

/**
 * A built desk over stdio for fuzzing: initialized on `version`, its stdout decoded as one stream
 * (a multi-byte character may span two chunks) and cut into lines, each parsed once as it arrives; waits driven by
 * stdout events rather than polling. Positions in the output are line indexes: a fuzz of 10,000 lines re-reads none.
 */
export class StdioFuzzTarget {
  /** Complete stdout lines so far. */
  readonly lines: string[] = [];
  /** Each of `lines` parsed (a line that is not JSON is kept as `{ 'not JSON': line }`). */
  private readonly parsed: unknown[] = [];
  /** The start of a line whose end has not arrived yet. */
  private partial = '';
  private sentinels = 0;
  readonly srv: RawStdioServer;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    readonly version: string,
    readonly batches: boolean,
    env: Record<string, string>,
  ) {
    // RawStdioServer passes process.env on to the child.
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      this.srv = new RawStdioServer();
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    this.srv.child.stdout!.on('data', (d: Buffer) => {
      const parts = this.decoder.write(d).split('\n');
      parts[0] = this.partial + parts[0];
      this.partial = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        this.parsed.push(parseLine(line));
      }
    });
  }

  async initialize(): Promise<unknown> {
    this.srv.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: this.version, capabilities: {}, clientInfo: { name: 'fuzz', version: '1.0.0' } },
    });
    const res = await this.srv.response('init', 20_000);
    this.srv.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return res;
  }

  /** A fresh id for a ping that fences a fuzzed line; longer than any id the generators make. */
  nextSentinel(): string {
    return `fuzz-sentinel-${String(++this.sentinels).padStart(8, '0')}`;
  }

  /** Complete stdout lines from line index `from`, parsed. */
  messages(from: number): unknown[] {
    return this.parsed.slice(from);
  }

  /** Whether a stdout line from line index `from` is exactly `line`. */
  printed(line: string, from: number): boolean {
    for (let i = from; i < this.lines.length; i++) if (this.lines[i] === line) return true;
    return false;
  }

  /** Stdout from line index `from`, as written (complete lines). */
  text(from: number): string {
    return this.lines.slice(from).join('\n') + (from < this.lines.length ? '\n' : '');
  }

  /**
   * Resolves once `ok()` holds, re-checked on every stdout chunk. The bound tells a hang from a slow answer: a line of
   * about 1 MiB, answered by four servers at once on a loaded two-core machine, took over 5 s once (a CI run); a hang
   * never answers at all. `what` names the wait in the timeout's message (a function: built only then).
   */
  until(ok: () => boolean, what: string | (() => string), ms = 20_000): Promise<void> {
    if (ok()) return Promise.resolve();
    const stdout = this.srv.child.stdout as Readable;
    return new Promise((resolve, reject) => {
      const check = () => ok() && (done(), resolve());
      const timer = setTimeout(
        () => (
          done(),
          reject(
            new Error(
              `stdio ${this.version}: no ${typeof what === 'string' ? what : what()} within ${ms} ms (exit code ${this.srv.child.exitCode})`,
            ),
          )
        ),
        ms,
      );
      const done = () => (clearTimeout(timer), stdout.off('data', check));
      stdout.on('data', check);
    });
  }

  async close(): Promise<void> {
    this.srv.endInput();
    await Promise.race([this.srv.exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
    this.srv.kill();
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return { 'not JSON': line };
  }
}

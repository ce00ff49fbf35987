import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { runWithRequestId } from './log-context';
import { mcpPinoOptions } from './log-format';
import { McpLogger } from './mcp.logger';

/** An McpLogger over an in-memory stream: the lines it writes, parsed. */
function capture(level = 'info'): { logger: McpLogger; lines: () => Record<string, unknown>[] } {
  let text = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((text += chunk.toString()), done()) });
  const logger = new McpLogger(pino(mcpPinoOptions(level), sink));
  return {
    logger,
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('McpLogger', () => {
  it("writes Nest's calls as JSON lines: the context last, an object merged, an Error under err", () => {
    const { logger, lines } = capture();
    logger.log('plain message', 'Orders');
    logger.warn({ msg: 'structured', orderId: 7 }, 'Orders');
    logger.error(new Error('boom'), 'Orders');
    const [plain, structured, failed] = lines();
    expect(plain).toMatchObject({ level: 'info', context: 'Orders', msg: 'plain message' });
    expect(structured).toMatchObject({ level: 'warn', context: 'Orders', msg: 'structured', orderId: 7 });
    expect(failed).toMatchObject({ level: 'error', context: 'Orders', err: { type: 'Error', message: 'boom' } });
  });

  it("keeps the stack Nest's exception handlers pass as a second argument with the error", () => {
    const { logger, lines } = capture();
    const stack = 'Error: failed\n    at handler (file.js:1:1)';
    logger.error('failed', stack, 'ExceptionsHandler');
    expect(lines()[0]).toMatchObject({ context: 'ExceptionsHandler', err: { message: 'failed', stack } });
  });

  it('adds the current request id to lines written while a request is served, and not to others', () => {
    const { logger, lines } = capture();
    runWithRequestId('req-77', () => logger.log('inside', 'Tool'));
    logger.log('outside', 'Tool');
    const [inside, outside] = lines();
    expect(inside.requestId).toBe('req-77');
    expect(outside.requestId).toBeUndefined();
  });

  it('skips levels below the configured one without building a line', () => {
    const { logger, lines } = capture('warn');
    logger.log('not written');
    logger.debug('not written');
    logger.verbose('not written');
    logger.warn('written');
    expect(lines().map((l) => l.msg)).toEqual(['written']);
  });

  it('buffers lines in its destination until flushed (and shutdown flushes)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-logger-'));
    try {
      const file = join(dir, 'app.log');
      const destination = McpLogger.destination(file);
      const logger = new McpLogger(pino(mcpPinoOptions('info'), destination), destination);
      logger.log('first', 'Test');
      logger.log('second', 'Test');
      expect(readFileSync(file, 'utf8')).toBe('');
      logger.onApplicationShutdown();
      const written = readFileSync(file, 'utf8').trim().split('\n');
      expect(written.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first', 'second']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { Injectable, LoggerService, OnApplicationShutdown } from '@nestjs/common';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { currentRequestId } from './log-context';
import { LogBatchDestination } from './log-batch.destination';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
/** What a buffered destination (LogBatchDestination, or any stream with a synchronous flush) offers beyond a stream. */
type Flushable = DestinationStream & { flushSync(): void };

function openLogFile(path: string): number {
  mkdirSync(dirname(path), { recursive: true });
  return openSync(path, 'a');
}

function flushQuietly(destination: Flushable): void {
  try {
    destination.flushSync();
  } catch {
    // Not open yet (nothing written) or already closed: nothing of ours to save.
  }
}

/**
 * Nest's logger, writing JSON lines through one pino logger (the application log of `McpLoggerModule`).
 * Lines keep the shape Nest's calls imply: `context` from the Nest `Logger` name, an object message merged
 * into the line, an `Error` under `err`. A line written while an HTTP request is served carries its
 * `requestId` (from `X-Request-Id`), without a per-request child logger.
 *
 * The destination is buffered: lines are written in blocks of a few kilobytes (to a file directly, to a pipe or
 * socket asynchronously) and at least every {@link McpLogger.FLUSH_INTERVAL_MS}, so a busy server does not make a
 * write call per line; the buffer is written out synchronously when the app shuts down (SIGTERM included) and when
 * the process exits by any other path (`process.exit`).
 *
 * @example
 * // without bootstrapMcpServer: main.ts
 * const app = await NestFactory.create(AppModule, { bufferLogs: true });
 * app.useLogger(app.get(McpLogger));
 */
@Injectable()
export class McpLogger implements LoggerService, OnApplicationShutdown {
  /** How long a line may wait in the buffer of a quiet server. */
  static readonly FLUSH_INTERVAL_MS = 250;
  /** Lines are written once this many bytes wait (and on the interval, and at shutdown). */
  static readonly BUFFER_BYTES = 4096;

  /** @internal */
  constructor(
    /** The pino logger itself, for code that wants pino's API (child loggers of its own, levels). */
    readonly pino: PinoLogger,
    private readonly destination?: Flushable,
  ) {}

  /**
   * A buffered file or stream destination for {@link McpLogger}: `fd` 1 or 2, or a file path (created with its
   * directory if missing, appended to).
   */
  static destination(target: 1 | 2 | string): Flushable {
    // A file is opened here, synchronously: opened asynchronously, a process exiting within its first
    // milliseconds would find the destination not ready and lose (or fail to flush) its first lines.
    const fd = typeof target === 'string' ? openLogFile(target) : target;
    return LogBatchDestination.forFd(fd, McpLogger.BUFFER_BYTES, McpLogger.FLUSH_INTERVAL_MS);
  }

  log(message: unknown, ...optionalParams: unknown[]): void {
    this.write('info', message, optionalParams);
  }
  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }
  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }
  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }
  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }
  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  /** Writes out what is buffered, synchronously. */
  flush(): void {
    if (this.destination) flushQuietly(this.destination);
  }

  onApplicationShutdown(): void {
    this.flush();
  }

  private write(level: Level, message: unknown, optionalParams: unknown[]): void {
    const logger = this.pino;
    if (!logger.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {};
    // Nest passes the logger's context (its name) last.
    let params = optionalParams;
    if (params.length > 0) {
      line.context = params[params.length - 1];
      params = params.slice(0, -1);
    }
    const requestId = currentRequestId();
    if (requestId !== undefined) line.requestId = requestId;
    if (typeof message === 'object' && message !== null) {
      if (message instanceof Error) line.err = message;
      else Object.assign(line, message);
      logger[level](line, ...(params as []));
    } else if (isNestErrorWithStack(level, message, params)) {
      // Nest's exception handlers call error(message, stack, context): keep the stack with the error.
      const err = new Error(message);
      err.stack = params[0] as string;
      line.err = err;
      logger[level](line);
    } else {
      logger[level](line, message as string, ...(params as []));
    }
  }
}

function isNestErrorWithStack(level: Level, message: unknown, params: unknown[]): message is string {
  return (
    level === 'error' &&
    typeof message === 'string' &&
    params.length === 1 &&
    typeof params[0] === 'string' &&
    /\n\s*at /.test(params[0])
  );
}

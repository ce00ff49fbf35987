import { INestApplicationContext, LoggerService } from '@nestjs/common';
import { Logger as PinoLogger } from 'nestjs-pino';

/**
 * The app's pino logger when it imports `McpLoggerModule`, else undefined (the app keeps Nest's own
 * logger). Looked up instead of required, so an app without structured logs still boots.
 */
export function structuredLogger(app: INestApplicationContext): LoggerService | undefined {
  try {
    return app.get(PinoLogger, { strict: false });
  } catch {
    return undefined;
  }
}

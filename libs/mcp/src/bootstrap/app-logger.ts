import { INestApplicationContext, LoggerService } from '@nestjs/common';
import { McpLogger } from '../observability/mcp.logger';

/**
 * The app's JSON logger (`McpLogger`) when it imports `McpLoggerModule`, else undefined (the app keeps Nest's own
 * logger). Looked up instead of required, so an app without structured logs still boots.
 */
export function structuredLogger(app: INestApplicationContext): LoggerService | undefined {
  try {
    return app.get(McpLogger, { strict: false });
  } catch {
    return undefined;
  }
}

import { INestApplicationContext, LoggerService } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpLogger } from '../observability/mcp.logger';

/**
 * The app's JSON logger (`McpLogger`) when it imports `McpLoggerModule`, else undefined (the app keeps Nest's own
 * logger). Looked up instead of required, so an app without structured logs still boots. The lookup goes through
 * the root `ModuleRef`, not `app.get()`: the application's own `get` runs in Nest's exception zone, which ends the
 * process on a missing provider (abortOnError) before a `catch` here could see it.
 */
export function structuredLogger(app: INestApplicationContext): LoggerService | undefined {
  try {
    return app.get(ModuleRef).get(McpLogger, { strict: false });
  } catch {
    return undefined;
  }
}

/** Syslog severities of MCP `notifications/message`, lowest first. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

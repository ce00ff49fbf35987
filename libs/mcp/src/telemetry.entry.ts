/**
 * Entry point `@app/mcp/telemetry`: what an app's `instrumentation.ts` imports first, before Nest and the libraries
 * OpenTelemetry instruments are loaded (so nothing else of the platform is loaded with it).
 *
 * @example
 * import { packageVersion, startMcpTelemetry } from '@app/mcp/telemetry';
 * startMcpTelemetry({ serviceName: 'orders', serviceVersion: packageVersion() });
 */
export { startMcpTelemetry, stopMcpTelemetry, McpTelemetryOptions } from './observability/mcp-telemetry';
export { packageVersion } from './app-version';

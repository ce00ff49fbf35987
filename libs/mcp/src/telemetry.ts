// Entry point `@app/mcp/telemetry`: what an app's instrumentation.ts imports first, before Nest and the
// libraries OpenTelemetry instruments are loaded (so the app never deep-imports the library).
export { startMcpTelemetry, stopMcpTelemetry, McpTelemetryOptions } from './observability/mcp-telemetry';
export { packageVersion } from './app-version';

// Imported first by main.ts: OpenTelemetry must start before the libraries it instruments load.
import { startMcpTelemetry } from '@app/mcp/observability/mcp-telemetry';
import { packageVersion } from '@app/mcp/app-version';

/** The same version McpModule reports in serverInfo, /health and project://version. */
export const telemetry = startMcpTelemetry({ serviceName: 'helpdesk', serviceVersion: packageVersion() });

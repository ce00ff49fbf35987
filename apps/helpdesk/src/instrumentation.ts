// Imported first by main.ts: OpenTelemetry must start before the libraries it instruments load.
import { packageVersion, startMcpTelemetry } from '@app/mcp/telemetry';

/** The same version McpModule reports in serverInfo, /health and project://version. */
export const telemetry = startMcpTelemetry({ serviceName: 'helpdesk', serviceVersion: packageVersion() });

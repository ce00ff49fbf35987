import { telemetry } from './instrumentation';
import { bootstrapMcpServer } from '@app/mcp';
import { AppModule } from './app.module';

// HTTP on HOST:PORT, or stdio with --stdio / MCP_TRANSPORT=stdio; see bootstrapMcpServer.
void bootstrapMcpServer(AppModule, { telemetry });

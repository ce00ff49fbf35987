import { Provider, Type } from '@nestjs/common';
import { McpHealthController } from './mcp-health.controller';
import { McpHealthService } from './mcp-health.service';
import { ManagementProbes } from './management-probes';
import { PlatformProbesFactory } from './platform-probes.factory';
import { ReadinessCheckExplorer } from './readiness-check.explorer';
import { TerminusLoader } from './terminus.loader';

/** Providers and controllers of `/health` and `/ready`, spread into McpModule. @internal */
export const HEALTH_PROVIDERS: Provider[] = [
  TerminusLoader,
  PlatformProbesFactory,
  ReadinessCheckExplorer,
  McpHealthService,
  ManagementProbes,
];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const HEALTH_CONTROLLERS: Type[] = [McpHealthController];

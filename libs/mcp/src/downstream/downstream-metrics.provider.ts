import { FactoryProvider } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { McpMetrics } from '../observability/mcp-metrics.service';

/** Injection token of the Prometheus registry the downstream clients report to (absent without McpModule). */
export const DOWNSTREAM_REGISTRY = Symbol('DOWNSTREAM_REGISTRY');

/**
 * The service's registry (`McpMetrics.registry`, served on `/metrics`) when McpModule is in the app; optional, so a
 * downstream module tested on its own needs no McpModule (its clients then report nothing).
 * @internal
 */
export const DOWNSTREAM_REGISTRY_PROVIDER: FactoryProvider<{ registry: Registry | undefined }> = {
  provide: DOWNSTREAM_REGISTRY,
  inject: [{ token: McpMetrics, optional: true }],
  useFactory: (metrics?: McpMetrics) => ({ registry: metrics?.registry }),
};

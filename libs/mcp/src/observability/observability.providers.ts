import { Provider, Type } from '@nestjs/common';

/** Providers of tracing, call logs, audit and metrics, spread into McpModule. @internal */
export const OBSERVABILITY_PROVIDERS: Provider[] = [];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const OBSERVABILITY_CONTROLLERS: Type[] = [];

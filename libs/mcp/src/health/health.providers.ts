import { Provider, Type } from '@nestjs/common';

/** Providers and controllers of `/health` and `/ready`, spread into McpModule. @internal */
export const HEALTH_PROVIDERS: Provider[] = [];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const HEALTH_CONTROLLERS: Type[] = [];

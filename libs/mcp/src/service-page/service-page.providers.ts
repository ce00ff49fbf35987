import { Provider, Type } from '@nestjs/common';
import { ServicePageController } from './service-page.controller';

/** Providers and controllers of the `GET /` service page, spread into McpModule. @internal */
export const SERVICE_PAGE_PROVIDERS: Provider[] = [];
/** Registered whenever HTTP is served; each answers 404 when its feature is switched off. @internal */
export const SERVICE_PAGE_CONTROLLERS: Type[] = [ServicePageController];

import { Provider } from '@nestjs/common';
import { CorporateBuiltins } from './corporate-builtins.publisher';

/** Providers of the corporate built-in prompts and resources, spread into McpModule. @internal */
export const CORPORATE_PROVIDERS: Provider[] = [CorporateBuiltins];

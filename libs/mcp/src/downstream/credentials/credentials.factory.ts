import { LoggerService } from '@nestjs/common';
import { McpDownstreamCredentialsOptions } from '../downstream-options.interface';
import { DownstreamCredentials } from './downstream-credentials.interface';
import { StaticCredentials } from './static.credentials';
import { ClientCredentialsCredentials } from './client-credentials.credentials';
import { TokenExchangeCredentials } from './token-exchange.credentials';
import { TokenCredentialsDeps } from './token-credentials.deps';

/**
 * What credentials may need of the module that builds them. Minimal for now: the token types (client credentials,
 * token exchange) add their cache's store here.
 * @internal
 */
export interface CredentialsDeps extends TokenCredentialsDeps {
  /** Where credential problems are logged (never a secret, never a token). */
  logger?: LoggerService;
}

/**
 * The credentials of downstream `name`, as its options describe them. Options are checked before (see
 * downstream-options.validator.ts); this only builds.
 * @internal
 */
export function createCredentials(
  name: string,
  options: McpDownstreamCredentialsOptions,
  deps: CredentialsDeps,
): DownstreamCredentials {
  switch (options.type) {
    case 'static':
      return new StaticCredentials(options.header, options.value);
    case 'client_credentials':
      return new ClientCredentialsCredentials(name, options, deps);
    case 'token_exchange':
      return new TokenExchangeCredentials(name, options, deps);
  }
}

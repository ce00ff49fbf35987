/**
 * Entry point `@app/mcp/downstream`: clients for the services a tool calls, authenticated with the service's own
 * credentials or a token exchanged for the caller, never the caller's token.
 *
 * @example
 * import { ClientCredentialsCredentials, DownstreamCredentialsError } from '@app/mcp/downstream';
 */
// Credentials (docs/downstream-credentials.md).
export { DownstreamCallInfo, DownstreamCredentials } from './downstream/credentials/downstream-credentials.interface';
export {
  DownstreamCredentialsError,
  DownstreamCredentialsFailure,
} from './downstream/credentials/downstream-credentials.error';
export { ClientCredentialsCredentials } from './downstream/credentials/client-credentials.credentials';
export { TokenExchangeCredentials } from './downstream/credentials/token-exchange.credentials';
export { TokenCredentialsDeps } from './downstream/credentials/token-credentials.deps';

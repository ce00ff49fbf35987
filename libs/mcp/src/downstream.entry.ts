/**
 * Entry point `@app/mcp/downstream`: clients for the services a tool calls, with their own credentials (never the
 * caller's token), within the call's deadline, retried when safe, behind a circuit breaker, their failures mapped to
 * the corporate error table (docs/downstream.md).
 *
 * @example
 * import { InjectDownstream, McpDownstreamClient, McpDownstreamModule } from '@app/mcp/downstream';
 * \@Module({ imports: [McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://jira.example.com/' })] })
 */
export { McpDownstreamModule, McpDownstreamAsyncOptions } from './downstream/mcp-downstream.module';
export { InjectDownstream } from './downstream/inject-downstream.decorator';
export { McpDownstreamClient } from './downstream/mcp-downstream.client';
export { DownstreamRequest, DownstreamRequestOptions, DownstreamResponse } from './downstream/downstream.response';
export {
  McpDownstreamOptions,
  McpDownstreamCredentialsOptions,
  McpDownstreamRetryOptions,
  McpDownstreamBreakerOptions,
  McpDownstreamReadinessOptions,
} from './downstream/downstream-options.interface';
export {
  DownstreamError,
  DownstreamFailure,
  DownstreamRejectedError,
  DownstreamConflictError,
  DownstreamUnavailableError,
  DownstreamRateLimitedError,
  DownstreamServerError,
  isDownstreamError,
} from './downstream/downstream.errors';
export { DownstreamCallInfo, DownstreamCredentials } from './downstream/credentials/downstream-credentials.interface';
export {
  DownstreamCredentialsError,
  DownstreamCredentialsFailure,
} from './downstream/credentials/downstream-credentials.error';
export { ClientCredentialsCredentials } from './downstream/credentials/client-credentials.credentials';
export { TokenExchangeCredentials } from './downstream/credentials/token-exchange.credentials';
export { TokenCredentialsDeps } from './downstream/credentials/token-credentials.deps';

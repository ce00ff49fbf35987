// The few parts of oidc-provider 9 (which ships no types) that test/support/oidc-issuer.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface OidcClient {
    clientId: string;
  }
  interface TokenContext {
    oidc: { params?: Record<string, unknown>; client?: OidcClient };
    body: unknown;
  }
  interface AccessTokenInit {
    accountId: string;
    client: OidcClient;
    scope?: string;
    gty?: string;
    extra?: Record<string, unknown>;
  }
  class AccessToken {
    constructor(init: AccessTokenInit);
    resourceServer: unknown;
    readonly expiration: number;
    save(): Promise<string>;
  }
  class ResourceServer {
    constructor(identifier: string, info: Record<string, unknown>);
  }
  class OidcError extends Error {
    constructor(description?: string);
  }
  export const errors: {
    InvalidRequest: typeof OidcError;
    InvalidGrant: typeof OidcError;
    InvalidTarget: typeof OidcError;
  };
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly AccessToken: typeof AccessToken;
    readonly ResourceServer: typeof ResourceServer;
    registerGrantType(name: string, handler: (ctx: TokenContext) => Promise<void>, params?: string[]): void;
    on(event: string, listener: (ctx: TokenContext) => void): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  }
}

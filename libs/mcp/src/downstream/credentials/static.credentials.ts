import { DownstreamCredentials } from './downstream-credentials.interface';

/**
 * A secret from configuration sent as one header (an API key) on every request: for a service that offers nothing
 * better. It never changes, so there is nothing to invalidate.
 * @internal
 */
export class StaticCredentials implements DownstreamCredentials {
  private readonly fixed: Readonly<Record<string, string>>;

  constructor(header: string, value: string) {
    this.fixed = Object.freeze({ [header]: value });
  }

  headers(): Promise<Record<string, string>> {
    return Promise.resolve({ ...this.fixed });
  }
}

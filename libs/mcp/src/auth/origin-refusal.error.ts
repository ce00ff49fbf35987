import { AuthorityRefusal } from './host-authority';

/**
 * A request refused by McpOriginGuard: its Origin or Host is not allowed, or its authority is malformed. Thrown so
 * that nothing after the guard runs; McpOriginRefusalFilter writes the answer.
 * @internal
 */
export class McpOriginRefusal extends Error {
  constructor(readonly refusal: AuthorityRefusal) {
    super(refusal.message);
    this.name = 'McpOriginRefusal';
  }
}

/**
 * Entry point `@app/mcp/tooling`: what the repository's own tools and checks share with the platform, so they agree
 * with it by construction rather than by copy: the generator placeholders the contract gate refuses (the same rule
 * the registry applies at boot), and the shutdown margin deploy files must leave. Not needed by a team's app.
 *
 * Pure and self-contained: `libs/contract`, built on its own, compiles only these files of the platform.
 */
export { PLACEHOLDER, placeholderFields } from './registry/placeholder-fields';
export { SHUTDOWN_MARGIN_MS } from './bootstrap/bootstrap.constants';

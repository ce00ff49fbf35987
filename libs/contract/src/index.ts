/**
 * Public entry point of the contract gate (`@app/contract`): the apps under apps/ and how to build one, reading an
 * app's published contract over stdio, and that contract's shape. `libs/compliance` and the tests use these; the
 * gate itself is `npm run contract` / `npm run contract:check` (contract.cli.ts).
 *
 * @example
 * import { appProjects, buildApp } from '@app/contract';
 * const entries = appProjects(repo).map((app) => buildApp(repo, app));
 */
export { AppProject, appProjects, buildApp, readContract } from './contract-source';
export { McpContract } from './contract.types';

import { resolve } from 'node:path';
import { RunningServer, startHttpServer } from './server-process';

/** The built conformance fixture (the test command builds it first). */
export const CONFORMANCE_MAIN = resolve(
  __dirname,
  '../../dist/fixtures/conformance/test/fixtures/conformance/src/main.js',
);

/** The official suite's CLI, run with the project's Node (it needs 22+). */
export const CONFORMANCE_CLI = resolve(__dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The suite's pre-release with the 2026-07-28 scenarios and the frozen requirement sets (0.2.0-alpha.12, pinned). */
export const CONFORMANCE_NEXT_CLI = resolve(
  __dirname,
  '../../node_modules/@modelcontextprotocol/conformance-next/dist/index.js',
);

/** Starts the conformance fixture on an ephemeral loopback port. */
export const startConformanceFixture = (env: Record<string, string> = {}): Promise<RunningServer> =>
  startHttpServer(CONFORMANCE_MAIN, env);

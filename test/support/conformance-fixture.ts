import { resolve } from 'node:path';
import { RunningServer, startHttpServer } from './server-process';

/** The built conformance fixture (the test command builds it first). */
export const CONFORMANCE_MAIN = resolve(
  __dirname,
  '../../dist/fixtures/conformance/test/fixtures/conformance/src/main.js',
);

/** The official suite's CLI, run with the project's Node (it needs 22+). */
export const CONFORMANCE_CLI = resolve(__dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Starts the conformance fixture on an ephemeral loopback port. */
export const startConformanceFixture = (): Promise<RunningServer> => startHttpServer(CONFORMANCE_MAIN);

/** Unit specs sit beside the code; end-to-end suites live under test/. */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  // The libraries' public entry points only, as in tsconfig.json: `@app/mcp/<name>` is libs/mcp/src/<name>.entry.ts.
  moduleNameMapper: {
    '^@app/mcp$': '<rootDir>/libs/mcp/src/index.ts',
    '^@app/mcp/([a-z-]+)$': '<rootDir>/libs/mcp/src/$1.entry.ts',
    '^@app/mcp-testing$': '<rootDir>/libs/mcp-testing/src/index.ts',
    '^@app/mcp-testing/([a-z-]+)$': '<rootDir>/libs/mcp-testing/src/$1.entry.ts',
    '^@app/contract$': '<rootDir>/libs/contract/src/index.ts',
  },
  // Quiet: Nest's log lines are shown only for a failing test (test/support/quiet-environment.js).
  testEnvironment: '<rootDir>/test/support/quiet-environment.js',
  setupFiles: ['<rootDir>/test/support/quiet-logger.js'],
  // Built apps carry a copy of their package.json: keep dist/ out of jest's module map.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

/**
 * The HTTP end-to-end suites, run a second time on Nest's Fastify adapter (`MCP_HTTP_ADAPTER=fastify` for every server
 * they start): Streamable HTTP in both eras, legacy HTTP+SSE, the service page, health, metrics, CORS and Origin
 * checks, auth, limits, tracing and logs, tasks, skills, MCP Apps views, the conformance suites, the replicas on
 * Redis and the shutdown.
 */
const FASTIFY_SUITES = [
  'test/apps*.e2e-spec.ts',
  'test/auth*.e2e-spec.ts',
  'test/conformance*.e2e-spec.ts',
  'test/connection-limits.e2e-spec.ts',
  'test/corporate-builtins.e2e-spec.ts',
  'test/deep-json.e2e-spec.ts',
  'test/downstream.e2e-spec.ts',
  'test/error-*.e2e-spec.ts',
  'test/event-log-budget.e2e-spec.ts',
  'test/health.e2e-spec.ts',
  'test/http-*.e2e-spec.ts',
  'test/legacy-sse*.e2e-spec.ts',
  'test/limits.e2e-spec.ts',
  'test/modern-listen-shutdown.e2e-spec.ts',
  'test/optional-modules.e2e-spec.ts',
  'test/pipeline.e2e-spec.ts',
  'test/request-*.e2e-spec.ts',
  'test/resource-templates.e2e-spec.ts',
  'test/service-page.e2e-spec.ts',
  'test/session-limits.e2e-spec.ts',
  'test/shutdown.e2e-spec.ts',
  'test/skills*.e2e-spec.ts',
  'test/stream-abuse.e2e-spec.ts',
  'test/task*.e2e-spec.ts',
  'test/compliance/compliance-fixture.e2e-spec.ts',
  'test/fuzz/http*.e2e-spec.ts',
  'test/observability/{logs,metrics,tracing,task-tracing}.e2e-spec.ts',
  // The replicas suites where requests cross the HTTP edge (sessions, streams and calls routed between replicas, a
  // replica killed or drained under its connections); not those whose subject is the store or the task workers alone
  // (Redis topologies, a Redis emptied, worker faults, the per-caller run cap), where the adapter plays no part.
  'test/replicas/{apps,downstream,idempotency,skills,tasks,tasks-sdk1}-replicas.e2e-spec.ts',
  'test/replicas/{modern-era,redis-sessions,replica-faults,replica-kill-proxy,round-robin-sdk}.e2e-spec.ts',
  'test/replicas/shutdown-store-unreachable.e2e-spec.ts',
].map((glob) => `<rootDir>/${glob}`);

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/apps/*/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/quiet-logger.js', '<rootDir>/test/support/jest-env.js'],
    },
    {
      ...common,
      displayName: 'e2e-fastify',
      rootDir: __dirname,
      testMatch: FASTIFY_SUITES,
      setupFiles: [
        '<rootDir>/test/support/quiet-logger.js',
        '<rootDir>/test/support/jest-env.js',
        '<rootDir>/test/support/fastify-env.js',
      ],
    },
  ],
  // Suites without a timing from an earlier run start by the time they declare, longest first (see the file).
  testSequencer: '<rootDir>/test/support/suite-sequencer.js',
  reporters: ['default', '<rootDir>/test/support/count-reporter.js', '<rootDir>/test/support/timing-reporter.js'],
  testTimeout: 30000,
};

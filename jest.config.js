/** Unit specs sit beside the code; end-to-end suites live under test/. */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  moduleNameMapper: {
    '^@app/mcp(|/.*)$': '<rootDir>/libs/mcp/src$1',
    '^@app/mcp-testing(|/.*)$': '<rootDir>/libs/mcp-testing/src$1',
  },
  // Quiet: Nest's log lines are shown only for a failing test (test/support/quiet-environment.js).
  testEnvironment: '<rootDir>/test/support/quiet-environment.js',
  setupFiles: ['<rootDir>/test/support/quiet-logger.js'],
  // Built apps carry a copy of their package.json: keep dist/ out of jest's module map.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

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
  ],
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
  testTimeout: 30000,
};

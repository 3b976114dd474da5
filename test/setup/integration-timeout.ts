// Jest ignores `testTimeout` in a project's config; integration tests start real services, so hooks need minutes.
jest.setTimeout(120_000);

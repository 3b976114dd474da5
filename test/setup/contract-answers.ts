import { takeContractMismatches } from '../helpers/contract-answers';

// Every answer of an app made by buildTestApp is checked against the OpenAPI document (test/helpers/contract-answers.ts):
// a test during which one did not match fails, naming the route, the status and what was wrong.
function failOnMismatches(when: string): void {
  const found = takeContractMismatches();
  if (found.length > 0) throw new Error(`${found.length} answer(s) ${when} do not match the OpenAPI document (/openapi.json, contract/):\n${found.join('\n')}`);
}

afterEach(() => failOnMismatches('during this test'));
afterAll(() => failOnMismatches('after the last test'));

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../api/docs';

// Runs as dist/devstack/write-openapi.js (`npm run openapi`) and is imported as devstack/write-openapi.ts by its test.
const PROJECT_ROOT = path.resolve(__dirname, path.extname(__filename) === '.ts' ? '..' : '../..');

/** The committed copy of the document the API serves; a test fails when they differ. */
export const COMMITTED_OPENAPI = path.join(PROJECT_ROOT, 'docs', 'openapi.json');

/** The document as committed: two-space JSON with a final newline. */
export const openApiText = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (require.main === module) {
  writeFileSync(COMMITTED_OPENAPI, openApiText());
  console.log(`wrote ${path.relative(process.cwd(), COMMITTED_OPENAPI)}`);
}

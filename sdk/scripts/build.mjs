// Builds the package: CommonJS into dist/cjs (entry commonjs.cjs), ES modules into dist/esm (marked as such by its own
// package.json), each with declarations for its module system; then src and test together into dist/dev, where
// mocha runs them (on the project's Node and on Node 14). dist is emptied first, so nothing stale is ever packed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(project) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: packageDir, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(path.join(packageDir, 'dist'), { recursive: true, force: true });
compile('tsconfig.cjs.json');
compile('tsconfig.esm.json');
for (const [folder, type] of [['cjs', 'commonjs'], ['esm', 'module']]) {
  mkdirSync(path.join(packageDir, 'dist', folder), { recursive: true });
  writeFileSync(path.join(packageDir, 'dist', folder, 'package.json'), `${JSON.stringify({ type })}\n`);
}
compile('tsconfig.json');

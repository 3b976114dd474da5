import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// This file runs as devstack/build-assets.ts (tests) and as dist/devstack/build-assets.js (npm scripts).
const PROJECT_ROOT = path.resolve(__dirname, path.extname(__filename) === '.ts' ? '..' : '../..');

/** Something built from sources: what it is built from and what it builds, relative to the project's root. */
export interface BuildTarget {
  name: string;
  /** Files and folders (read whole); one that does not exist counts as empty. */
  inputs: readonly string[];
  /** Missing, the target is built whatever the inputs. */
  outputs: readonly string[];
  build(): Promise<void>;
}

function filesBelow(root: string, input: string): string[] {
  const full = path.join(root, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [input];
  return (readdirSync(full, { recursive: true }) as string[])
    .map((file) => path.join(input, file))
    .filter((file) => statSync(path.join(root, file)).isFile());
}

/** The inputs' names and contents as one hash: a change, an added or a removed file changes it; a touch does not. */
export function inputsDigest(root: string, inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => filesBelow(root, input)).sort()) {
    hash.update(`${file.split(path.sep).join('/')}\0`).update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

function stampFile(root: string, target: BuildTarget): string {
  return path.join(root, 'dist', '.build-inputs', `${target.name}.sha256`);
}

/** Whether the target must be built: an output is missing, or its inputs are not those of its last build. */
export function needsBuild(root: string, target: BuildTarget): boolean {
  if (target.outputs.some((output) => !existsSync(path.join(root, output)))) return true;
  const stamp = stampFile(root, target);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8') !== inputsDigest(root, target.inputs);
}

/** Builds the target and records the inputs it was built from (read before the build: a file changed meanwhile builds again next time). */
export async function buildTarget(root: string, target: BuildTarget): Promise<void> {
  const digest = inputsDigest(root, target.inputs);
  await target.build();
  mkdirSync(path.dirname(stampFile(root, target)), { recursive: true });
  writeFileSync(stampFile(root, target), digest);
}

/** Builds the targets whose inputs changed (all of them with `all`); returns the names of those built. */
export async function buildAssets(root: string, targets: readonly BuildTarget[], { all }: { all: boolean }): Promise<string[]> {
  const built: string[] = [];
  for (const target of targets) {
    if (!all && !needsBuild(root, target)) continue;
    await buildTarget(root, target);
    built.push(target.name);
  }
  return built;
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(' ')} exited with ${code}`))));
  });
}

const LOCKFILE = 'package-lock.json';

/** What the server serves besides its compiled code (tsc builds that, and skips itself when nothing changed: `tsc -b`). */
export const ASSETS: readonly BuildTarget[] = [
  {
    name: 'tracking-script',
    inputs: ['web/src', 'web/build.ts', LOCKFILE],
    outputs: ['dist/web/signalbox.js'],
    build: () => run(process.execPath, [path.join(PROJECT_ROOT, 'dist', 'web', 'build.js')]),
  },
  {
    name: 'console',
    inputs: ['console/src', 'console/index.html', 'console/vite.config.ts', 'console/tsconfig.json', 'console/package.json', LOCKFILE],
    outputs: ['dist/console/index.html'],
    build: () => run('npm', ['run', 'build', '--workspace', 'console']),
  },
];

/** `node dist/devstack/build-assets.js [--if-changed]`: npm run build builds them all, npm start only what changed. */
if (require.main === module) {
  const ifChanged = process.argv.includes('--if-changed');
  buildAssets(PROJECT_ROOT, ASSETS, { all: !ifChanged }).then(
    (built) => {
      const unchanged = ASSETS.map((target) => target.name).filter((name) => !built.includes(name));
      if (unchanged.length > 0) console.log(`unchanged, not built again: ${unchanged.join(', ')}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
/** The project's sources: the folder of `bench/` whether this runs as .ts or from dist/. */
const SOURCE_ROOT = existsSync(path.join(ROOT, 'package.json')) ? ROOT : path.join(ROOT, '..');

/** A heading of CHANGELOG.md that names a release and its commit: `## Release 2026-12-02 (commit aac34d0)`. */
const RELEASE_HEADING = /^## Release (\S+) \(commit ([0-9a-f]{7,40})\)/gm;

export interface Release {
  name: string;
  commit: string;
}

/** The releases CHANGELOG.md names, newest first. */
export function releasesInChangelog(text: string): Release[] {
  return [...text.matchAll(RELEASE_HEADING)].map((match) => ({ name: match[1] as string, commit: match[2] as string }));
}

/** The release to upgrade from: `UPGRADE_FROM` (a commit), else the newest release in CHANGELOG.md. */
export function previousRelease(env: NodeJS.ProcessEnv = process.env): Release {
  if (env.UPGRADE_FROM !== undefined && env.UPGRADE_FROM !== '') return { name: env.UPGRADE_FROM, commit: env.UPGRADE_FROM };
  const [newest] = releasesInChangelog(readFileSync(path.join(SOURCE_ROOT, 'CHANGELOG.md'), 'utf8'));
  if (newest === undefined) throw new Error('CHANGELOG.md names no release ("## Release <name> (commit <hash>)"); set UPGRADE_FROM to a commit');
  return newest;
}

const cacheRoot = () => path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'signalbox', 'releases');

/**
 * The release's compiled server code (its `dist/`), built once into a cache outside the clone from the commit's files
 * (`git archive`): its own `node_modules` from its lockfile, unless that lockfile is this tree's, whose modules it then
 * shares. `log` gets a line per step.
 */
export async function buildRelease(release: Release, log: (line: string) => void): Promise<string> {
  // Keyed by the commit as CHANGELOG.md writes it, so that a built release is found without the clone's history.
  const dir = path.join(cacheRoot(), release.commit);
  const built = path.join(dir, '.built');
  const dist = path.join(dir, 'dist');
  if (existsSync(built)) return dist;
  const { stdout } = await run('git', ['-C', SOURCE_ROOT, 'rev-parse', '--verify', `${release.commit}^{commit}`]);
  const commit = stdout.trim();

  log(`building release ${release.name} (${commit.slice(0, 12)}) into ${dir}, once`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await run('sh', ['-c', `git -C "${SOURCE_ROOT}" archive "${commit}" | tar -x -C "${dir}"`]);
  const sameLockfile = readFileSync(path.join(dir, 'package-lock.json'), 'utf8') === readFileSync(path.join(SOURCE_ROOT, 'package-lock.json'), 'utf8');
  if (sameLockfile) {
    for (const workspace of ['.', 'console', 'sdk', 'web']) {
      const modules = path.join(SOURCE_ROOT, workspace, 'node_modules');
      if (existsSync(modules) && existsSync(path.join(dir, workspace))) symlinkSync(modules, path.join(dir, workspace, 'node_modules'));
    }
  }
  else await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 64 * 2 ** 20 });
  log(`  modules: ${sameLockfile ? "this tree's (same lockfile)" : 'installed from its lockfile'}; compiling`);
  await run(path.join(dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: dir, maxBuffer: 64 * 2 ** 20 });
  // NODE_ENV is jest's `test` when the upgrade test builds: without `production` Vite would build React's development
  // code, which is over the console's first-load budget and fails the build.
  await run(process.execPath, [path.join(dist, 'devstack', 'build-assets.js')], { cwd: dir, maxBuffer: 64 * 2 ** 20, env: { ...process.env, NODE_ENV: 'production' } });
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return dist;
}

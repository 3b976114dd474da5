import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, run } from './engine';

export const SIGNALBOX_IMAGE = 'localhost/signalbox:test';
export const LOCAL_NODE_BASE = 'localhost/node:20';
export const LOCAL_POSTGRES = 'localhost/postgres:15';

const limits = ['--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096'];

/** The images besides Signalbox's that the compose file needs here: the local bases, PostgreSQL and Temporal. */
export async function buildSupportImages(log: (line: string) => void): Promise<{ temporalImage: string }> {
  log('local base images (containers/local-base.sh; cached)');
  await run(path.join(ROOT, 'containers', 'local-base.sh'), [], { echo: true });
  if ((await run('podman', ['image', 'exists', LOCAL_POSTGRES], { check: false })).code !== 0) {
    log(`building ${LOCAL_POSTGRES}`);
    await run('podman', ['build', ...limits, '--network=host', '--format', 'docker', '-t', LOCAL_POSTGRES, path.join(ROOT, 'containers', 'postgres')], { echo: true });
  }
  log('Temporal server image (containers/temporal-image.sh; cached)');
  const { stdout } = await run(path.join(ROOT, 'containers', 'temporal-image.sh'), []);
  return { temporalImage: stdout.trim().split('\n').pop() as string };
}

/**
 * The files a fresh clone of this tree has (tracked and untracked-not-ignored, as they are now), copied into a new
 * folder: the image is built from what the repository holds, never from node_modules, dist or .signalbox.
 */
function cloneOfTree(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'signalbox-image-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).toString().split('\0');
  const files = listed.filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
  const archive = execFileSync('tar', ['-C', ROOT, '--null', '-T', '-', '-cf', '-'], { input: files.join('\0'), maxBuffer: 1 << 30 });
  execFileSync('tar', ['-C', folder, '-xf', '-'], { input: archive });
  return folder;
}

/** Builds Signalbox's image on the local Node base; returns the seconds it took. */
export async function buildSignalboxImage(log: (line: string) => void, options: { noCache: boolean }): Promise<number> {
  const context = cloneOfTree();
  try {
    log(`building ${SIGNALBOX_IMAGE} from a copy of the tree in ${context}${options.noCache ? ' (no cache)' : ''}`);
    // A TLS-inspecting proxy's CA (this machine's, for the npm registry), mounted for the build's RUN steps only.
    const extraCa = process.env.NODE_EXTRA_CA_CERTS;
    const caArgs = extraCa ? ['--volume', `${extraCa}:/run/build-ca.pem:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/build-ca.pem'] : [];
    const started = Date.now();
    await run(
      'podman',
      ['build', ...limits, '--network=host', '--format', 'docker', ...caArgs, ...(options.noCache ? ['--no-cache'] : []), '--build-arg', `BASE_IMAGE=${LOCAL_NODE_BASE}`, '-f', 'Containerfile', '-t', SIGNALBOX_IMAGE, '.'],
      { cwd: context, echo: process.env.CONTAINERS_VERBOSE === '1' },
    );
    return (Date.now() - started) / 1000;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

export async function imageSizeMb(image: string): Promise<number> {
  const { stdout } = await run('podman', ['image', 'inspect', '--format', '{{.Size}}', image]);
  return Number(stdout.trim()) / 1_000_000;
}

import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

/**
 * The package as npm publishes it (`npm pack`), installed into tiny consumer projects, one per TypeScript module
 * mode: each type-checks under `strict` and `exactOptionalPropertyTypes`, runs, and is bundled with esbuild as ES
 * module and as CommonJS, and the bundles run. Needs the project's Node (TypeScript and esbuild), not Node 14.
 */
const PACKAGE_DIR = path.join(__dirname, '..', '..', '..');
const tsc = require.resolve('typescript/bin/tsc');
const typesNode = path.dirname(require.resolve('@types/node/package.json'));

/** Compiled and run in every mode: the README's import, the named export, runtime error classes, the track type. */
const CONSUMER = `
import Signalbox, { Signalbox as Named, SignalboxError, SignalboxValidationError, type SignalboxConfig, type TrackOptions } from '@signalbox/api';

const userId: string | undefined = process.env.CONSUMER_USER_ID;
const config: SignalboxConfig = { apiKey: 'dk_consumer', host: process.env.CONSUMER_HOST, enabled: false };
const client = new Signalbox(config);
const named = new Named({ apiKey: 'dk_consumer', enabled: false });
const order: TrackOptions = { event: 'purchase', anonymousId: 'visitor-1', userId, properties: { total: 46 } };

// @ts-expect-error: track() needs a userId or an anonymousId
const anonymous: TrackOptions = { event: 'purchase' };

async function main(): Promise<void> {
  await client.track(order);
  const refused: unknown = await client.track({ event: 'purchase', userId: 'u', timestamp: '12345' }).catch((error: unknown) => error);
  await Promise.all([client.close(), named.close()]);
  console.log(JSON.stringify({
    constructed: named instanceof Named && client instanceof Signalbox,
    refused: refused instanceof SignalboxValidationError && refused instanceof SignalboxError,
    name: refused instanceof Error ? refused.name : typeof refused,
    unused: typeof anonymous,
  }));
}

void main();
`;

const EXPECTED_OUTPUT = { constructed: true, refused: true, name: 'SignalboxValidationError', unused: 'object' };

interface Mode {
  name: string;
  packageType?: 'module';
  compilerOptions: Record<string, unknown>;
  /** File that tsc emits, to run; none for `bundler`, which only type-checks. */
  emitted?: string;
}

const MODES: Mode[] = [
  { name: 'nodenext-esm', packageType: 'module', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' }, emitted: 'out/consumer.js' },
  { name: 'node16-commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, emitted: 'out/consumer.js' },
  { name: 'bundler', packageType: 'module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', noEmit: true } },
  { name: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true, ignoreDeprecations: '5.0' }, emitted: 'out/consumer.js' },
];

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function filesUnder(dir: string, prefix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

describe('consumer projects of the packed package', function () {
  this.timeout(600_000);
  let workDir: string;
  let packedFiles: string[];
  let tarball: string;

  before(() => {
    workDir = mkdtempSync(path.join(tmpdir(), 'signalbox-consumers-'));
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', workDir], PACKAGE_DIR)) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(workDir, packed.filename);
    packedFiles = packed.files.map((file) => file.path).sort();
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  it('packs the builds, declarations, README, LICENSE and CHANGELOG, and nothing else', () => {
    const built = [...filesUnder(path.join(PACKAGE_DIR, 'dist', 'cjs'), 'dist/cjs/'), ...filesUnder(path.join(PACKAGE_DIR, 'dist', 'esm'), 'dist/esm/')];
    assert.deepStrictEqual(packedFiles, ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json', ...built].sort());
    assert.ok(built.includes('dist/cjs/commonjs.cjs') && built.includes('dist/esm/index.js') && built.includes('dist/esm/index.d.ts'));
    assert.deepStrictEqual(built.filter((file) => /test|\.map$|\.tsbuildinfo$/.test(file)), []);
  });

  for (const mode of MODES) {
    it(`type-checks${mode.emitted ? ' and runs' : ''} a ${mode.name} project, and runs its esbuild bundles (ESM and CJS)`, () => {
      const project = path.join(workDir, mode.name);
      const installed = path.join(project, 'node_modules', '@signalbox', 'api');
      mkdirSync(installed, { recursive: true });
      run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], project);
      mkdirSync(path.join(project, 'node_modules', '@types'), { recursive: true });
      symlinkSync(typesNode, path.join(project, 'node_modules', '@types', 'node'), 'dir');
      writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: `consumer-${mode.name}`, private: true, ...(mode.packageType && { type: mode.packageType }) }));
      writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
      const compilerOptions = { target: 'es2020', strict: true, exactOptionalPropertyTypes: true, types: ['node'], outDir: 'out', ...mode.compilerOptions };
      writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));

      try {
        run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
      } catch (error) {
        assert.fail(`tsc failed in ${mode.name}:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
      }
      if (mode.emitted) assert.deepStrictEqual(JSON.parse(run(process.execPath, [mode.emitted], project)), EXPECTED_OUTPUT);

      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a dev tool of the project, loaded where it is needed
      const esbuild = require('esbuild') as typeof import('esbuild');
      for (const format of ['esm', 'cjs'] as const) {
        const outfile = path.join(project, `bundle.${format === 'esm' ? 'mjs' : 'cjs'}`);
        esbuild.buildSync({ entryPoints: [path.join(project, 'consumer.ts')], bundle: true, platform: 'node', target: 'node14', format, outfile, logLevel: 'silent' });
        assert.deepStrictEqual(JSON.parse(run(process.execPath, [outfile], project)), EXPECTED_OUTPUT, `the ${format} bundle runs`);
      }
    });
  }
});

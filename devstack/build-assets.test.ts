import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSETS, buildAssets, inputsDigest, needsBuild, type BuildTarget } from './build-assets';

let root: string;
let builds: number;
/** A target built from `src/` and `lock.json` into `dist/out.txt`, as the tracking script and the console are. */
let target: BuildTarget;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'signalbox-build-assets-'));
  builds = 0;
  target = {
    name: 'sample',
    inputs: ['src', 'lock.json', 'absent.json'],
    outputs: ['dist/out.txt'],
    build: async () => {
      builds += 1;
      write('dist/out.txt', readFileSync(path.join(root, 'src/a.ts'), 'utf8'));
    },
  };
  write('src/a.ts', 'export const a = 1;');
  write('src/nested/b.ts', 'export const b = 2;');
  write('lock.json', '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const buildChanged = () => buildAssets(root, [target], { all: false });

describe('npm start builds an asset only when its inputs changed', () => {
  it('builds it the first time, then not while nothing changed', async () => {
    expect(await buildChanged()).toEqual(['sample']);
    expect(await buildChanged()).toEqual([]);
    expect(builds).toBe(1);
  });

  it('builds it again when a source changes, even in a nested folder, and the output has the change', async () => {
    await buildChanged();
    write('src/a.ts', 'export const a = 3;');
    expect(await buildChanged()).toEqual(['sample']);
    expect(readFileSync(path.join(root, 'dist/out.txt'), 'utf8')).toBe('export const a = 3;');
    write('src/nested/b.ts', 'export const b = 4;');
    expect(needsBuild(root, target)).toBe(true);
  });

  it('builds it again when a file is added or removed, or the lockfile or an absent input appears', async () => {
    const changes = [() => write('src/c.ts', ''), () => unlinkSync(path.join(root, 'src/c.ts')), () => write('lock.json', '{"v":2}'), () => write('absent.json', '{}')];
    await buildChanged();
    for (const change of changes) {
      change();
      expect(needsBuild(root, target)).toBe(true);
      await buildChanged();
      expect(needsBuild(root, target)).toBe(false);
    }
    expect(builds).toBe(5);
  });

  it('builds it again when its output is gone, and not for a file touched without a change', async () => {
    await buildChanged();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src/a.ts'), later, later);
    expect(needsBuild(root, target)).toBe(false);
    unlinkSync(path.join(root, 'dist/out.txt'));
    expect(await buildChanged()).toEqual(['sample']);
  });

  it('builds them all with `all`, as npm run build does', async () => {
    await buildChanged();
    expect(await buildAssets(root, [target], { all: true })).toEqual(['sample']);
    expect(builds).toBe(2);
  });

  it('does not record a failed build: the next start builds again', async () => {
    target.build = () => Promise.reject(new Error('vite failed'));
    await expect(buildChanged()).rejects.toThrow('vite failed');
    expect(needsBuild(root, { ...target, outputs: [] })).toBe(true);
  });
});

describe('the assets', () => {
  it('are the tracking script and the console, whose every input exists in this checkout', () => {
    const project = path.join(__dirname, '..');
    expect(ASSETS.map((asset) => asset.name)).toEqual(['tracking-script', 'console']);
    for (const asset of ASSETS) expect(asset.inputs.filter((input) => inputsDigest(project, [input]) === inputsDigest(project, []))).toEqual([]);
  });
});

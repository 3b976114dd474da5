import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { announceRunningStack } from '../devstack/running-stacks';
import { resolveConnection } from './connection';

let project: string;
let runtimeDir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'signalbox-connection-'));
  runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-runtime-'));
  // Running stacks are looked up here, never in the machine's own runtime directory.
  env = { XDG_RUNTIME_DIR: runtimeDir };
  mkdirSync(path.join(project, '.signalbox'));
  mkdirSync(path.join(project, 'app', 'src'), { recursive: true });
  writeFileSync(path.join(project, '.signalbox', 'dev-stack.json'), JSON.stringify({ ingestUrl: 'http://127.0.0.1:8080', adminToken: 'file-token' }));
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(runtimeDir, { recursive: true, force: true });
});

const cwd = () => path.join(project, 'app', 'src');
const projectFile = () => path.join(project, '.signalbox', 'dev-stack.json');

/** A dev stack started with another SIGNALBOX_DATA_DIR, as `npm start` leaves it while running. */
function otherStack(url = 'http://127.0.0.1:18080', token = 'other-token'): string {
  const dataDir = path.join(project, 'elsewhere');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'dev-stack.json'), JSON.stringify({ ingestUrl: url, adminToken: token }));
  announceRunningStack({ dataDir, ingestUrl: url }, env);
  return dataDir;
}

describe('resolveConnection', () => {
  it('takes each setting from the flag, else the environment, else the dev stack file found upwards', () => {
    expect(resolveConnection({}, env, cwd())).toEqual({ url: 'http://127.0.0.1:8080', adminToken: 'file-token', source: projectFile() });
    expect(resolveConnection({ token: 'flag-token' }, { ...env, SIGNALBOX_ADMIN_TOKEN: 'env-token' }, cwd())).toMatchObject({ url: 'http://127.0.0.1:8080', adminToken: 'flag-token' });
    expect(resolveConnection({ url: 'http://127.0.0.1:8080/' }, env, cwd())).toEqual({ url: 'http://127.0.0.1:8080/', adminToken: 'file-token', source: '--url' });
  });

  it("never hands a dev stack's admin token to another server", () => {
    expect(resolveConnection({}, { ...env, SIGNALBOX_URL: 'http://env:1' }, cwd())).toEqual({ url: 'http://env:1', adminToken: undefined, source: 'SIGNALBOX_URL' });
  });

  it('finds the dev stack through SIGNALBOX_DATA_DIR first, relative to the current folder', () => {
    const dataDir = otherStack();
    expect(resolveConnection({}, { ...env, SIGNALBOX_DATA_DIR: path.relative(cwd(), dataDir) }, cwd())).toEqual({
      url: 'http://127.0.0.1:18080',
      adminToken: 'other-token',
      source: `SIGNALBOX_DATA_DIR=${path.relative(cwd(), dataDir)}: ${path.join(dataDir, 'dev-stack.json')}`,
    });
    expect(() => resolveConnection({}, { ...env, SIGNALBOX_DATA_DIR: '/nowhere/signalbox' }, cwd())).toThrow(
      'SIGNALBOX_DATA_DIR is /nowhere/signalbox, but /nowhere/signalbox/dev-stack.json does not exist: start the dev stack with that SIGNALBOX_DATA_DIR, or unset it',
    );
  });

  it('refuses to guess between the project\'s stack and another one running, naming both', () => {
    const dataDir = otherStack();
    expect(() => resolveConnection({}, env, cwd())).toThrow(
      [
        'more than one dev stack could be meant, so none is used:',
        `  ${path.join(project, '.signalbox')}  (http://127.0.0.1:8080, not running)`,
        `  ${dataDir}  (http://127.0.0.1:18080, running)`,
        'Set SIGNALBOX_DATA_DIR to one of these folders, or pass --url and --token.',
      ].join('\n'),
    );
  });

  it('uses the only running stack when no .signalbox is found upwards, and takes its token for its URL', () => {
    rmSync(path.join(project, '.signalbox'), { recursive: true });
    const dataDir = otherStack();
    expect(resolveConnection({}, env, cwd())).toEqual({ url: 'http://127.0.0.1:18080', adminToken: 'other-token', source: path.join(dataDir, 'dev-stack.json') });
    expect(resolveConnection({ url: 'http://127.0.0.1:18080' }, env, cwd()).adminToken).toBe('other-token');
  });

  it('ignores a stack whose npm start has died', async () => {
    rmSync(path.join(project, '.signalbox'), { recursive: true });
    const child: ChildProcess = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    const dataDir = path.join(project, 'dead');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'dev-stack.json'), JSON.stringify({ ingestUrl: 'http://127.0.0.1:18081', adminToken: 't' }));
    mkdirSync(path.join(runtimeDir, 'signalbox', 'stacks'), { recursive: true });
    writeFileSync(path.join(runtimeDir, 'signalbox', 'stacks', `${child.pid}.json`), JSON.stringify({ pid: child.pid, dataDir, ingestUrl: 'http://127.0.0.1:18081' }));
    expect(() => resolveConnection({}, env, cwd())).toThrow('no server URL');
  });

  it('says where a URL can come from when nothing provides one', () => {
    rmSync(path.join(project, '.signalbox'), { recursive: true });
    expect(() => resolveConnection({}, env, cwd())).toThrow(
      'no server URL: pass --url, set SIGNALBOX_URL or SIGNALBOX_DATA_DIR, or start the dev stack (it writes .signalbox/dev-stack.json)',
    );
  });

  it('names a dev stack file that is not JSON, with the line and column', () => {
    writeFileSync(projectFile(), '{\n  "ingestUrl": "http://127.0.0.1:8080"\n  "adminToken": "t"\n}');
    expect(() => resolveConnection({}, env, cwd())).toThrow(`${projectFile()} is not valid JSON: expected ',' or '}' after a property value, found '"' (line 3, column 3)`);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConnection } from './connection';

let project: string;
beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'signalbox-connection-'));
  mkdirSync(path.join(project, '.signalbox'));
  mkdirSync(path.join(project, 'app', 'src'), { recursive: true });
  writeFileSync(path.join(project, '.signalbox', 'dev-stack.json'), JSON.stringify({ ingestUrl: 'http://127.0.0.1:8080', adminToken: 'file-token' }));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('resolveConnection', () => {
  const cwd = () => path.join(project, 'app', 'src');

  it('takes each setting from the flag, else the environment, else the dev stack file found upwards', () => {
    expect(resolveConnection({}, {}, cwd())).toEqual({ url: 'http://127.0.0.1:8080', adminToken: 'file-token' });
    expect(resolveConnection({}, { SIGNALBOX_URL: 'http://env:1' }, cwd())).toEqual({ url: 'http://env:1', adminToken: 'file-token' });
    expect(resolveConnection({ token: 'flag-token' }, { SIGNALBOX_ADMIN_TOKEN: 'env-token' }, cwd())).toEqual({ url: 'http://127.0.0.1:8080', adminToken: 'flag-token' });
  });

  it('says where a URL can come from when nothing provides one', () => {
    rmSync(path.join(project, '.signalbox'), { recursive: true });
    expect(() => resolveConnection({}, {}, cwd())).toThrow('no server URL: pass --url, set SIGNALBOX_URL, or start the dev stack (it writes .signalbox/dev-stack.json)');
  });

  it('names a dev stack file that is not JSON', () => {
    writeFileSync(path.join(project, '.signalbox', 'dev-stack.json'), '{ half');
    expect(() => resolveConnection({}, {}, cwd())).toThrow(/dev-stack\.json is not valid JSON/);
  });
});

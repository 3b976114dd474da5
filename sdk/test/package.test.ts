import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';

const PACKAGE_DIR = path.join(__dirname, '..', '..', '..');

/** Runs a snippet on this same Node binary from the package folder, where `@signalbox/api` resolves to the package itself. */
function runNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();
}

const PROBE = `
  const client = new Signalbox({ apiKey: 'dk_probe', host: 'http://127.0.0.1:9' });
  const refused = await client.track({ event: 'e' }).catch((error) => error);
  const errors = [SignalboxError, SignalboxValidationError, SignalboxClosedError, SignalboxDeliveryError, SignalboxFlushError];
  console.log(JSON.stringify({
    same: [Signalbox === Named, typeof client.track, client.getAnonymousId().length],
    refused: [refused instanceof SignalboxValidationError, refused instanceof SignalboxError, refused.name, refused.message],
    names: errors.map((type) => type.name),
  }));
  await client.close();
`;

const EXPECTED = {
  same: [true, 'function', 36],
  refused: [true, true, 'SignalboxValidationError', 'track(): the event needs a userId or an anonymousId'],
  names: ['SignalboxError', 'SignalboxValidationError', 'SignalboxClosedError', 'SignalboxDeliveryError', 'SignalboxFlushError'],
};
const NAMES = 'SignalboxError, SignalboxValidationError, SignalboxClosedError, SignalboxDeliveryError, SignalboxFlushError';

describe('the built package', () => {
  it('gives CommonJS require() the client class itself, with the named exports and .default on it', () => {
    const script = `(async () => {
      const Signalbox = require('@signalbox/api');
      const { Signalbox: Named, default: Default, ${NAMES} } = Signalbox;
      if (Default !== Signalbox || Signalbox.__esModule !== true) throw new Error('no .default');
      ${PROBE}
    })();`;
    assert.deepStrictEqual(JSON.parse(runNode(['-e', script])), EXPECTED);
  });

  it('gives ES modules the class as the default export and named exports, runtime error classes included', () => {
    const script = `import Signalbox, { Signalbox as Named, ${NAMES} } from '@signalbox/api'; ${PROBE}`;
    assert.deepStrictEqual(JSON.parse(runNode(['--input-type=module', '-e', script])), EXPECTED);
  });

  it('shares one beforeExit listener among all clients, also across the CommonJS and ES module copies', () => {
    const script = `
      import { createRequire } from 'module';
      import Signalbox from '@signalbox/api';
      const Required = createRequire(process.cwd() + '/')('@signalbox/api');
      const before = process.listenerCount('beforeExit');
      const clients = [];
      for (let i = 0; i < 11; i += 1) {
        const Client = i % 2 === 0 ? Signalbox : Required;
        const client = new Client({ apiKey: 'dk_probe', host: 'http://127.0.0.1:9', flushInterval: 60000 });
        client.on('error', () => undefined);
        clients.push(client);
        await client.track({ event: 'e', userId: 'u' });
      }
      const busy = process.listenerCount('beforeExit') - before;
      await Promise.all(clients.map((client) => client.close({ timeoutMs: 0 }).catch(() => undefined)));
      console.log(JSON.stringify([Required === Signalbox, busy, process.listenerCount('beforeExit') - before]));
    `;
    // The two copies are distinct classes (the dual-package hazard), yet the hook is one.
    assert.deepStrictEqual(JSON.parse(runNode(['--input-type=module', '-e', script])), [false, 1, 0]);
  });

  it('declares an MIT licence, its repository, Node 14 and no install-time scripts, and ships LICENSE and CHANGELOG', () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.strictEqual(manifest.license, 'MIT');
    assert.match(readFileSync(path.join(PACKAGE_DIR, 'LICENSE'), 'utf8'), /^MIT License/);
    assert.match(readFileSync(path.join(PACKAGE_DIR, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${(manifest.version as string).replace(/\./g, '\\.')}`));
    assert.deepStrictEqual(manifest.engines, { node: '>=14' });
    assert.match((manifest.repository as { url: string }).url, /^git\+https:\/\//);
    const installTime = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'preprepare', 'postprepare'];
    assert.deepStrictEqual(Object.keys(manifest.scripts as object).filter((name) => installTime.includes(name)), []);
    assert.deepStrictEqual(Object.keys((manifest.dependencies as object | undefined) ?? {}), [], 'no runtime dependencies');
    for (const file of ['dist/cjs/commonjs.cjs', 'dist/cjs/index.d.ts', 'dist/esm/index.js', 'dist/esm/index.d.ts']) {
      assert.ok(existsSync(path.join(PACKAGE_DIR, file)), `${file} is built`);
    }
  });
});

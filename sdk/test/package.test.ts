import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';

import type { SignalboxConfig, TrackOptions } from '../src/index';

const PACKAGE_DIR = path.join(__dirname, '..', '..');

/** Runs a snippet on this same Node binary from the package folder, where `@signalbox/api` resolves to it. */
function runNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();
}

const PROBE = `
  const client = new Signalbox({ apiKey: 'dk_probe', host: 'http://127.0.0.1:9' });
  console.log([typeof Signalbox, Signalbox.default === Signalbox, typeof client.track, client.getAnonymousId().length].join(' '));
  client.close();
`;

describe('the built package', () => {
  it('gives CommonJS require() the client class, with .default for compiled TypeScript', () => {
    assert.strictEqual(runNode(['-e', `const Signalbox = require('@signalbox/api'); ${PROBE}`]), 'function true function 36');
  });

  it('gives an ES module `import Signalbox from "@signalbox/api"` the client class', () => {
    assert.strictEqual(runNode(['--input-type=module', '-e', `import Signalbox from '@signalbox/api'; ${PROBE}`]), 'function true function 36');
  });

  it('ships type declarations that export the client and its argument types', () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { main: string; types: string };
    const declarations = readFileSync(path.join(PACKAGE_DIR, manifest.types), 'utf8');
    assert.match(declarations, /export default Signalbox;/);
    for (const name of ['SignalboxConfig', 'TrackOptions', 'PageOptions', 'MessageOptions', 'DeliveryError', 'FlushError']) {
      assert.match(declarations, new RegExp(`\\b${name}\\b`), `${name} is exported`);
    }
    // Compiled as part of this file: the exported types accept what the README shows.
    const config: SignalboxConfig = { apiKey: 'dk_x', flushAt: 50, retryLimit: 5 };
    const options: TrackOptions = { event: 'purchase', userId: 'u', anonymousId: 'a', properties: { revenue: 1 } };
    assert.ok(config && options);
  });
});

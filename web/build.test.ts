import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTrackingScript } from './build';

it('keeps the tracking script under 5 KB gzipped', async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-build-'));
  try {
    const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
    expect(built.gzippedBytes).toBeLessThan(5 * 1024);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

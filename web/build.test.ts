import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTrackingScript } from './build';

// 5 KB until the script drove TikTok's pixel with the server's conversion rules (sdk/src/rules), which took 2.5 KB.
it('keeps the tracking script under 8 KB gzipped', async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-build-'));
  try {
    const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
    expect(built.gzippedBytes).toBeLessThan(8 * 1024);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

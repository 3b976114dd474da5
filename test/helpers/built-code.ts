import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildTrackingScript } from '../../web/build';

const ROOT = path.join(__dirname, '..', '..');
// sdk/src/rules: the message rules the ingest API shares with the client library, compiled into the server too.
const SOURCE_DIRS = ['activities', 'adplatform', 'api', 'cli', 'config', 'contract', 'db', 'devstack', 'domain', 'notify', 'temporal', 'worker', 'workflows', 'sdk/src/rules'];

/**
 * The server code as `npm run build` lays it out (compiled with esbuild, file by file), with the tracking script, in a
 * new folder under `dist/` (inside the project, so that it finds its node_modules). Returns the folder.
 */
export async function compileServerCode(prefix: string): Promise<string> {
  mkdirSync(path.join(ROOT, 'dist'), { recursive: true });
  const out = mkdtempSync(path.join(ROOT, 'dist', prefix));
  const entryPoints = SOURCE_DIRS.flatMap((dir) =>
    (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => path.join(ROOT, dir, file)),
  );
  await build({ entryPoints, outdir: out, outbase: ROOT, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent' });
  await buildTrackingScript(path.join(out, 'web', 'signalbox.js'));
  return out;
}

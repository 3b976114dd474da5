import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// This file runs as web/build.ts (tests) and as dist/web/build.js (npm run build); the entry is TypeScript either way.
const PROJECT_ROOT = path.resolve(__dirname, path.extname(__filename) === '.ts' ? '..' : '../..');
export const TRACKING_SCRIPT_ENTRY = path.join(PROJECT_ROOT, 'web', 'src', 'index.ts');
/** Where the ingest API reads it from (api/ingest/tracking-script.ts). */
export const TRACKING_SCRIPT_OUTFILE = path.join(PROJECT_ROOT, 'dist', 'web', 'signalbox.js');

export interface BuiltScript {
  outfile: string;
  bytes: number;
  gzippedBytes: number;
}

/** Bundles and minifies the browser tracking script into one classic script for browsers from 2020 on (ES2020: Chrome 80, Safari 13.1, Firefox 74). */
export async function buildTrackingScript(outfile = TRACKING_SCRIPT_OUTFILE): Promise<BuiltScript> {
  const result = await build({
    entryPoints: [TRACKING_SCRIPT_ENTRY],
    tsconfig: path.join(PROJECT_ROOT, 'web', 'src', 'tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no output');
  mkdirSync(path.dirname(outfile), { recursive: true });
  writeFileSync(outfile, output.contents);
  return { outfile, bytes: output.contents.length, gzippedBytes: gzipSync(output.contents, { level: 9 }).length };
}

if (require.main === module) {
  buildTrackingScript().then(
    ({ outfile, bytes, gzippedBytes }) => console.log(`tracking script: ${path.relative(PROJECT_ROOT, outfile)} ${bytes} bytes, ${gzippedBytes} gzipped`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

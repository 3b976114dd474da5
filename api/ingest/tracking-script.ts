import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Where `npm run build` writes the bundle (web/build.ts), seen from dist/api/ingest/. */
export const BUILT_TRACKING_SCRIPT = path.join(__dirname, '..', '..', 'web', 'signalbox.js');

/** The browser tracking script, read once at startup and served from memory. */
export interface TrackingScript {
  source: Buffer;
  gzipped: Buffer;
  etag: string;
}

export function trackingScriptFrom(source: Buffer): TrackingScript {
  const digest = createHash('sha256').update(source).digest('base64url').slice(0, 27);
  return { source, gzipped: gzipSync(source, { level: 9 }), etag: `"${digest}"` };
}

/** Reads the built bundle; throws naming the file and the command that builds it when it is missing. */
export function loadTrackingScript(file = BUILT_TRACKING_SCRIPT): TrackingScript {
  let source: Buffer;
  try {
    source = readFileSync(file);
  } catch (error) {
    throw new Error(`the tracking script ${file} cannot be read (${(error as Error).message}): build it with npm run build`);
  }
  return trackingScriptFrom(source);
}

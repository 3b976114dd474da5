import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { trackingScriptFrom } from './tracking-script';
import { TRACKING_SCRIPT_PATH } from '../http/paths';
import { trackingScriptRoutes } from './tracking-script-route';

const source = Buffer.from('(()=>{window.signalbox={}})();'.repeat(20));
const script = trackingScriptFrom(source);

async function served() {
  const app = Fastify();
  await app.register(trackingScriptRoutes, { script });
  return app;
}

describe('GET /js/v1/signalbox.js', () => {
  it('serves the script gzipped, cacheable, with an ETag, to any origin', async () => {
    const app = await served();
    const response = await app.inject({ method: 'GET', url: TRACKING_SCRIPT_PATH, headers: { 'accept-encoding': 'gzip, deflate, br', origin: 'https://shop.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/javascript; charset=utf-8',
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
      etag: script.etag,
      vary: 'Accept-Encoding',
      'access-control-allow-origin': '*',
    });
    expect(gunzipSync(response.rawPayload).equals(source)).toBe(true);
    expect(response.rawPayload.length).toBeLessThan(source.length);
  });

  it('serves it plain to a client without gzip, and answers 304 to a matching If-None-Match', async () => {
    const app = await served();
    const plain = await app.inject({ method: 'GET', url: TRACKING_SCRIPT_PATH, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(source)).toBe(true);

    const revalidated = await app.inject({ method: 'GET', url: TRACKING_SCRIPT_PATH, headers: { 'if-none-match': `"other", ${script.etag}` } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const changed = await app.inject({ method: 'GET', url: TRACKING_SCRIPT_PATH, headers: { 'if-none-match': '"an-older-build"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('gives a new ETag to a new build', () => {
    expect(trackingScriptFrom(Buffer.from('changed')).etag).not.toBe(script.etag);
  });
});

import type { FastifyPluginAsync } from 'fastify';
import { TRACKING_SCRIPT_PATH } from '../http/paths';
import type { TrackingScript } from './tracking-script';

/**
 * A day of freshness keeps fixes flowing to every site within a day; after that browsers and CDNs revalidate with the
 * ETag (a 304 without a body) or, for a week, serve the old copy while they do.
 */
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    return coding.trim() === 'gzip' && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
  });
}

function etagMatches(header: string | undefined, etag: string): boolean {
  return (header ?? '').split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate === etag || candidate === `W/${etag}`;
  });
}

/** `GET /js/v1/signalbox.js`: public, cacheable, gzipped when the client accepts it, readable from any origin. */
export const trackingScriptRoutes: FastifyPluginAsync<{ script: TrackingScript }> = async (app, { script }) => {
  app.get(TRACKING_SCRIPT_PATH, async (request, reply) => {
    reply.headers({
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': CACHE_CONTROL,
      etag: script.etag,
      vary: 'Accept-Encoding',
      // Lets pages load it with `crossorigin` (needed for Subresource Integrity and for readable error reports).
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    if (etagMatches(request.headers['if-none-match'], script.etag)) return reply.code(304).send();
    if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(script.gzipped);
    return reply.send(script.source);
  });
};

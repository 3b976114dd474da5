import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { gatewayPage } from './envelope';
import { advertiserInfoRoute } from './routes/advertiser-info';
import { registerAuthorizationPage } from './routes/authorization-page';
import { registerControlRoutes } from './routes/control';
import { entityRoute } from './routes/entities';
import { crmListRoute, offlineGetRoute } from './routes/event-set-list';
import { eventTrackRoute } from './routes/event-track';
import { accessTokenRoute, advertiserGetRoute } from './routes/oauth';
import { registerPixelRoutes } from './routes/pixel';
import { pixelListRoute } from './routes/pixel-list';
import { reportRoute } from './routes/report';
import { DEFAULT_FAKE_TIKTOK_SEED, type FakeTikTokSeed } from './seed';
import { FakeTikTokState } from './state';
import { registerTikTokRoute } from './tiktok-route';

export interface FakeTikTokAppOptions {
  /** Apps, advertisers and tokens known from the start and after every reset. Default: DEFAULT_FAKE_TIKTOK_SEED. */
  seed?: FakeTikTokSeed;
  /** Reject email/phone/external_id that are not SHA-256 lower-case hex, with 40002. Default: true. */
  requireHashedPii?: boolean;
  /** Pino logger for the server. Default: no logging. */
  logger?: FastifyBaseLogger;
}

/** Above any real `event/track` body (1,000 events); TikTok's own cap is UNVERIFIED (§11). */
const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export async function buildFakeTikTokApp(
  options: FakeTikTokAppOptions = {},
): Promise<{ app: FastifyInstance; state: FakeTikTokState }> {
  const state = new FakeTikTokState(options.seed ?? DEFAULT_FAKE_TIKTOK_SEED);
  const app: FastifyInstance = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
  });
  app.addHook('preClose', async () => state.shutdown());

  await app.register(async (tiktokApi) => {
    // TikTok routes see the raw body: a body that is not JSON must become a 40002 envelope, not a Fastify 400.
    tiktokApi.removeAllContentTypeParsers();
    tiktokApi.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    registerTikTokRoute(tiktokApi, state, eventTrackRoute(state, { requireHashedPii: options.requireHashedPii ?? true }));
    registerTikTokRoute(tiktokApi, state, accessTokenRoute(state));
    registerTikTokRoute(tiktokApi, state, advertiserGetRoute(state));
    registerTikTokRoute(tiktokApi, state, advertiserInfoRoute(state));
    registerTikTokRoute(tiktokApi, state, pixelListRoute(state));
    registerTikTokRoute(tiktokApi, state, offlineGetRoute(state));
    registerTikTokRoute(tiktokApi, state, crmListRoute(state));
    for (const kind of ['campaign', 'adgroup', 'ad'] as const) registerTikTokRoute(tiktokApi, state, entityRoute(state, kind));
    registerTikTokRoute(tiktokApi, state, reportRoute(state));
  });
  registerControlRoutes(app, state);
  registerPixelRoutes(app, state);
  registerAuthorizationPage(app, state);
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/html').send(gatewayPage(404)));
  return { app, state };
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { landingUrlOf } from '../click-store';
import { countForPixel } from '../pixel-counts';
import { FULL_GRANT_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import { badRequest } from './bad-request';

/** Control API under `/_fake/` (never a TikTok path): faults, received log and counts, tokens, clock, reset. */

const faultSchema = z
  .strictObject({
    path: z.string().startsWith('/', 'must be an API path such as /open_api/v1.3/event/track/').optional(),
    bodyIncludes: z.string().min(1, 'must not be empty').optional(),
    code: z.int().optional(),
    message: z.string().optional(),
    httpStatus: z.int().min(100).max(599).optional(),
    body: z.string().optional(),
    latencyMs: z.int().min(0).max(600_000).optional(),
    times: z.int().min(1).optional(),
    forMs: z.int().min(1).max(3_600_000).optional(),
  })
  .refine((fault) => fault.times === undefined || fault.forMs === undefined, {
    message: 'times and forMs are exclusive: times counts requests, forMs answers every request for that long',
  })
  .refine((fault) => fault.code === undefined || fault.body === undefined, {
    message: 'code and body are exclusive: code answers an envelope, body a raw page',
  })
  .refine((fault) => fault.message === undefined || fault.code !== undefined, {
    message: 'message needs a code',
  })
  .refine((fault) => [fault.code, fault.body, fault.httpStatus, fault.latencyMs].some((part) => part !== undefined), {
    message: 'needs at least one of code, body, httpStatus, latencyMs',
  });

const faultsSchema = z.strictObject({ faults: z.array(faultSchema).min(1) });

const tokenSchema = z.strictObject({
  accessToken: z.string().min(1),
  pixelCodes: z.array(z.string().min(1)),
  advertiserIds: z.array(z.string().regex(/^\d+$/, 'must be a string of digits')),
  scopes: z.array(z.string().regex(/^\d+$/, 'must be permission IDs as strings of digits')).optional(),
});

const authCodeSchema = z.strictObject({
  appId: z.string().min(1),
  advertiserIds: z.array(z.string().regex(/^\d+$/, 'must be a string of digits')).optional(),
  scopes: z.array(z.string().regex(/^\d+$/, 'must be permission IDs as strings of digits')).optional(),
});

const clickSchema = z.strictObject({
  adId: z.string().regex(/^\d+$/, 'must be an ad ID: a string of digits'),
  at: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time' }).optional(),
});

const NOT_A_TIME = 'must be an ISO-8601 date-time or epoch milliseconds';
const clockSchema = z.strictObject({
  now: z.union([z.iso.datetime({ offset: true, error: NOT_A_TIME }), z.int({ error: NOT_A_TIME }).nonnegative()], {
    error: NOT_A_TIME,
  }),
});

export function registerControlRoutes(app: FastifyInstance, state: FakeTikTokState): void {
  app.post('/_fake/faults', (request, reply) => {
    const parsed = faultsSchema.safeParse(request.body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    state.faults.add(parsed.data.faults);
    return reply.code(204).send();
  });

  app.delete('/_fake/faults', (_request, reply) => {
    state.faults.clear();
    return reply.code(204).send();
  });

  app.get('/_fake/events', () => state.log.snapshot());

  app.get<{ Params: { pixelCode: string } }>('/_fake/pixels/:pixelCode/counts', (request) =>
    countForPixel(state.log.arrivals(), request.params.pixelCode),
  );

  app.post('/_fake/reset', (_request, reply) => {
    state.reset();
    return reply.code(204).send();
  });

  app.post('/_fake/tokens', (request, reply) => {
    const parsed = tokenSchema.safeParse(request.body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    state.registerToken(parsed.data);
    return reply.code(204).send();
  });

  app.post('/_fake/oauth/codes', (request, reply) => {
    const parsed = authCodeSchema.safeParse(request.body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    const { appId, advertiserIds, scopes } = parsed.data;
    const authCode = state.oauth.issueCode(
      { appId, advertiserIds: advertiserIds ?? state.catalog.allAdvertiserIds(), scopes: scopes ?? [...FULL_GRANT_SCOPES] },
      state.clock.now().getTime(),
    );
    return reply.code(201).send({ authCode });
  });

  app.post('/_fake/clicks', (request, reply) => {
    const parsed = clickSchema.safeParse(request.body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    const ad = state.catalog.ad(parsed.data.adId);
    if (ad === undefined) return reply.code(404).send({ error: `adId: no seeded ad ${parsed.data.adId}` });
    const click = state.clicks.issue(ad, parsed.data.at ? new Date(parsed.data.at) : state.clock.now());
    const template = state.catalog.advertiser(ad.advertiserId)?.seed.landingPageUrl ?? 'https://shop.example/';
    return reply.code(201).send({
      ttclid: click.ttclid,
      landingUrl: landingUrlOf(template, click),
      advertiserId: ad.advertiserId,
      campaignId: ad.campaignId,
      adgroupId: ad.adgroupId,
      adId: ad.adId,
      clickedAt: click.clickedAt.toISOString(),
    });
  });

  app.put('/_fake/clock', (request, reply) => {
    const parsed = clockSchema.safeParse(request.body);
    if (!parsed.success) return badRequest(reply, parsed.error);
    state.clock.pin(new Date(parsed.data.now));
    return reply.send({ now: state.clock.now().toISOString() });
  });
}

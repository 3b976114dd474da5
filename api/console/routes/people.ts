import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { IdentityKind } from '../../../db/types';
import { hashEmail, hashPhone } from '../../../domain/hashing';
import { badRequest } from '../../http/http-error';
import { parseOrReject } from '../../http/validation';
import { currentWorkspace } from '../auth';
import { linkBetween } from '../identity-path';
import { lookupBody } from '../../../contract/console/workspace-routes';


/**
 * People (spec §7.7): a visitor or user looked up by anonymous ID, user ID, email or phone. Email and phone are hashed
 * here exactly as at ingest, so the lookup matches the stored hashes and the plaintext is never stored or logged.
 */
export const peopleRoutes: FastifyPluginAsync<{ repos: Repositories }> = async (app, { repos }) => {
  app.post('/people/lookup', async (request) => {
    const { kind, value } = parseOrReject(lookupBody, request.body, 'body');
    const workspace = currentWorkspace(request);
    const seed = identityOf(kind, value, workspace.defaultPhoneRegion);
    const linked = await repos.people.linked(workspace.id, seed);
    const ofKind = (k: IdentityKind) => linked.filter((node) => node.kind === k).map((node) => node.value);
    const ids = { userIds: ofKind('user_id'), anonymousIds: ofKind('anonymous_id') };
    const [visitors, clicks, events, conversions] = await Promise.all([
      repos.people.visitors(workspace.id, ids.anonymousIds),
      repos.people.clicks(workspace.id, ids.anonymousIds),
      repos.people.recentEvents(workspace.id, ids),
      repos.people.conversions(workspace.id, ids),
    ]);
    const devices = new Map<string, string | null>();
    for (const event of events) {
      const context = (event.message.context ?? {}) as { userAgent?: unknown };
      if (event.anonymous_id !== null && !devices.has(event.anonymous_id)) devices.set(event.anonymous_id, typeof context.userAgent === 'string' ? context.userAgent : null);
    }
    return {
      lookedUp: { kind: seed.kind, value: seed.value },
      found: linked.length > 1 || visitors.length > 0 || events.length > 0,
      identifiers: linked.map((node) => ({ kind: node.kind, value: node.value, hops: node.hops, via: node.via, link: node.via === null ? null : linkBetween(node.via, node) })),
      visitors: visitors.map((v) => ({
        anonymousId: v.anonymous_id,
        firstSeenAt: v.first_seen_at,
        lastSeenAt: v.last_seen_at,
        ttclid: v.ttclid,
        ttclidCapturedAt: v.ttclid_captured_at,
        ttp: v.ttp,
        userAgent: devices.get(v.anonymous_id) ?? null,
      })),
      clicks: clicks.map((c) => ({
        anonymousId: c.anonymous_id,
        ttclid: c.ttclid,
        capturedAt: c.captured_at,
        pageUrl: c.page_url,
        campaign: c.campaign_id === null ? null : { id: c.campaign_id, name: c.campaign_name },
        adgroup: c.adgroup_id === null ? null : { id: c.adgroup_id, name: c.adgroup_name },
        ad: c.ad_id === null ? null : { id: c.ad_id, name: c.ad_name },
      })),
      events: events.map((e) => ({ id: String(e.id), type: e.type, eventName: e.event_name, receivedAt: e.received_at, userId: e.user_id, anonymousId: e.anonymous_id })),
      conversions: conversions.map((c) => ({ id: c.id, status: c.status, reason: c.reason, tiktokEvent: c.tiktok_event, eventId: c.event_id, eventTime: c.event_time, value: c.value, currency: c.currency })),
    };
  });
};

function identityOf(kind: 'anonymous_id' | 'user_id' | 'email' | 'phone', value: string, phoneRegion: string): { kind: IdentityKind; value: string } {
  if (kind === 'anonymous_id' || kind === 'user_id') return { kind, value };
  const hashed = kind === 'email' ? hashEmail(value) : hashPhone(value, phoneRegion);
  if (hashed === undefined) throw badRequest(`value is not ${kind === 'email' ? 'an email address' : 'a phone number'} Signalbox can match`, [`value is not ${kind === 'email' ? 'an email address' : 'a phone number'} Signalbox can match`]);
  return { kind: kind === 'email' ? 'email_sha256' : 'phone_sha256', value: hashed };
}

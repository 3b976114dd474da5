import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import { COVERED_MATCH_KEYS, type EventMatchKeys } from '../../../db/repositories/conversion-figures';
import { MATCH_KEY_POINTS, matchQuality } from '../../../domain/match-quality';
import { MATCH_RATE_TARGET } from '../../../domain/match-rate';
import { reasonHelp } from '../../../domain/reason-help';
import { parseOrReject } from '../../http/validation';
import { currentWorkspace } from '../auth';
import { resolvePeriod } from '../period';
import { overviewQuery } from '../../../contract/console/workspace-routes';

/** Spec §8: TikTok's learning phase needs at least this many events a week. */
export const LEARNING_PHASE_EVENTS_PER_WEEK = 50;


/** Each TikTok event's sources that delivered something; an event that delivered nothing, once, without a source. */
function perSourceOrNone(keysPerEvent: readonly EventMatchKeys[]) {
  return [...new Set(keysPerEvent.map((e) => e.tiktokEvent))].flatMap((tiktokEvent): (Omit<EventMatchKeys, 'source'> & { source: EventMatchKeys['source'] | null })[] => {
    const rows = keysPerEvent.filter((e) => e.tiktokEvent === tiktokEvent);
    const delivering = rows.filter((e) => e.delivered > 0);
    return delivering.length > 0 ? delivering : [{ ...(rows[0] as EventMatchKeys), source: null }];
  });
}

/** Overview: what arrived, what became of the conversions, each TikTok event's health and match quality, match keys and event IDs. */
export const overviewRoutes: FastifyPluginAsync<{ db: Knex; repos: Repositories }> = async (app, { db, repos }) => {
  app.get('/overview', async (request) => {
    const period = await resolvePeriod(db, parseOrReject(overviewQuery, request.query, 'query'));
    const workspaceId = currentWorkspace(request).id;
    const now = new Date();
    const [events, conversions, rules, matchKeys] = await Promise.all([
      repos.eventCounts.perDay(workspaceId, period),
      repos.conversionFigures.perDay(workspaceId, period),
      repos.conversionRules.list(workspaceId),
      repos.conversionFigures.matchKeyCoverage(workspaceId, period),
    ]);
    const eventIds = { conversions: 0, shareable: 0 };
    for (const count of conversions) {
      eventIds.conversions += count.conversions;
      eventIds.shareable += count.shareable;
    }
    const tiktokEvents = [...new Set([...rules.flatMap((rule) => [rule.tiktokEvent, ...rule.alsoSendAs]), ...conversions.map((c) => c.tiktokEvent)])].sort();
    const [activity, keysPerEvent] = await Promise.all([
      repos.conversionFigures.activity(workspaceId, tiktokEvents, now),
      repos.conversionFigures.matchKeysPerEvent(workspaceId, tiktokEvents, period),
    ]);
    const reasons = [...new Set(conversions.flatMap((c) => (c.reason === null ? [] : [c.reason])))];
    return {
      period: { ...period, now },
      events: events.map(({ lastEventId: _sample, ...count }) => count),
      conversions: conversions.map(({ shareable: _shareable, ...count }) => count),
      tiktokEvents: activity.map((a) => ({
        ...a,
        status: a.deliveredLast7Days > 0 ? 'active' : 'no_recent_activity',
        learningPhase: { needed: LEARNING_PHASE_EVENTS_PER_WEEK, enough: a.deliveredLast7Days >= LEARNING_PHASE_EVENTS_PER_WEEK },
      })),
      matchKeys: {
        delivered: matchKeys.delivered,
        sampleLimit: matchKeys.sampleLimit,
        target: MATCH_RATE_TARGET,
        keys: COVERED_MATCH_KEYS.map((key) => ({ key, conversions: matchKeys.withKey[key], share: matchKeys.delivered === 0 ? null : matchKeys.withKey[key] / matchKeys.delivered })),
      },
      matchQuality: {
        points: MATCH_KEY_POINTS,
        events: perSourceOrNone(keysPerEvent).map((e) => ({ tiktokEvent: e.tiktokEvent, source: e.source, delivered: e.delivered, sampleLimit: matchKeys.sampleLimit, estimate: matchQuality(e.delivered, e.withKey) })),
      },
      eventIds: { ...eventIds, share: eventIds.conversions === 0 ? null : eventIds.shareable / eventIds.conversions },
      reasons: reasons.map((reason) => ({ reason, help: reasonHelp(reason) })),
    };
  });
};

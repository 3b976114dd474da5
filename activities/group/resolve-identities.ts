import type { ChosenClick, PrepareCandidate } from '../../db/repositories/conversion-groups';
import type { Repositories } from '../../db/repositories';
import type { ClickRow, IdentityPathNode } from '../../db/types';
import { readAdClickIds } from '../../domain/ad-click';
import { chooseClick, knownClicks, latestCountedClickTime, messageClick, type AttributionDecision } from '../../domain/attribution';
import { meaningfulIdentifier } from '../../domain/identifiers';
import { walkIdentities, type IdentityWalk } from '../../domain/identity-walk';
import { pageUrl, readTtclid, readTtp, type TrackedMessage } from '../../domain/message';
import type { VisitorKeys } from '../../domain/match-keys';
import { messageIdentities } from '../../domain/observation';
import { ownersFirst } from '../visitor-keys';

export interface ResolvedIdentity {
  walk: IdentityWalk;
  /** Anonymous IDs linked to the converting user (its own included). */
  linkedVisitors: number;
  /** Last click wins: the latest click before the conversion, and whether it is inside the attribution window. */
  attribution: AttributionDecision<ChosenClick>;
  /** That click (at any age), or null without one. */
  click: ChosenClick | null;
  /** From the converting message's identifier to the visitor that clicked; null without a click or its visitor. */
  identityPath: IdentityPathNode[] | null;
  ttp: string | null;
  /** The converting visitor's profile first, then the one that clicked: sources of match keys. */
  visitors: VisitorKeys[];
}

const adOf = (row: ClickRow | undefined) => ({ campaignId: row?.campaign_id ?? null, adgroupId: row?.adgroup_id ?? null, adId: row?.ad_id ?? null });

/**
 * The converting event's own click (`domain/attribution.ts` `messageClick`), timed by its sightings on the person's
 * visitors, with its ad: as its visitor's sighting holds it, else from the event's page URL (as ingest reads a page's).
 */
function ownClick(message: TrackedMessage, eventTime: Date, ttclid: string, sightings: readonly ClickRow[]): ChosenClick {
  const click = messageClick(ttclid, { time: eventTime, anonymousId: meaningfulIdentifier(message.anonymousId) }, sightings.map((row) => ({ anonymousId: row.anonymous_id, capturedAt: row.captured_at })));
  const seen = sightings.find((row) => row.anonymous_id === click.anonymousId);
  const ad = readAdClickIds(pageUrl(message));
  return { ...click, ...(seen === undefined ? { campaignId: ad.campaignId ?? null, adgroupId: ad.adgroupId ?? null, adId: ad.adId ?? null } : adOf(seen)) };
}

/**
 * Identity for a whole group, with a handful of statements whatever its size: the identity walks hop by hop, each
 * visitor's latest click before its conversion, where the converting events' own clicks were seen, and the visitors'
 * `_ttp`. Per conversion the result is what the per-conversion step found: every visitor linked through user ID,
 * anonymous ID or hashed email/phone; the latest click before the conversion, whether its own event carried it or a
 * visitor's profile holds it (last click wins); `_ttp` from the converting device, else the device that clicked; and
 * those two visitors' profiles, whose latest page views may lend their device details to the conversion.
 */
export async function resolveIdentities(
  profiles: Repositories['profiles'],
  workspace: { id: string; defaultPhoneRegion: string; attributionWindowDays: number },
  candidates: readonly PrepareCandidate[],
): Promise<ResolvedIdentity[]> {
  const messages = candidates.map((c) => c.message as unknown as TrackedMessage);
  const walks = await walkIdentities(
    messages.map((m) => messageIdentities(m, workspace.defaultPhoneRegion)),
    (nodes) => profiles.linksFrom(workspace.id, nodes),
  );
  const visitorsOf = walks.map((walk) => walk.values('anonymous_id'));
  const notAfter = candidates.map((c) => latestCountedClickTime(c.eventTime));
  const ownTtclids = messages.map(readTtclid);

  const asked = new Map<string, { anonymousId: string; notAfter: Date }>();
  const sightingsAsked = new Map<string, { anonymousId: string; ttclid: string }>();
  visitorsOf.forEach((ids, i) => {
    const ttclid = ownTtclids[i];
    for (const anonymousId of ids) {
      asked.set(`${anonymousId}\u0000${(notAfter[i] as Date).toISOString()}`, { anonymousId, notAfter: notAfter[i] as Date });
      if (ttclid !== undefined) sightingsAsked.set(`${anonymousId}\u0000${ttclid}`, { anonymousId, ttclid });
    }
  });
  const [clickRows, sightingRows] = await Promise.all([profiles.latestClicks(workspace.id, [...asked.values()]), profiles.clickSightings(workspace.id, [...sightingsAsked.values()])]);
  const clicksAsked = new Map(clickRows.map((row) => [`${row.anonymous_id}\u0000${row.not_after.toISOString()}`, row]));
  const sightings = new Map(sightingRows.map((row) => [`${row.anonymous_id}\u0000${row.ttclid}`, row]));

  const attributions = candidates.map((candidate, i) => {
    const ids = visitorsOf[i] as string[];
    const rows = ids.flatMap((id) => clicksAsked.get(`${id}\u0000${(notAfter[i] as Date).toISOString()}`) ?? []);
    const onVisitors = rows.map((r): ChosenClick => ({ ttclid: r.ttclid, capturedAt: r.captured_at, anonymousId: r.anonymous_id, source: 'visitor', ...adOf(r) }));
    const ttclid = ownTtclids[i];
    const own = ttclid === undefined ? undefined : ownClick(messages[i] as TrackedMessage, candidate.eventTime, ttclid, ids.flatMap((id) => sightings.get(`${id}\u0000${ttclid}`) ?? []));
    return chooseClick(knownClicks(own, onVisitors), candidate.eventTime, workspace.attributionWindowDays);
  });
  const clicks = attributions.map((decision) => ('click' in decision ? decision.click : null));

  const ownIds = messages.map((m) => meaningfulIdentifier(m.anonymousId));
  const wanted = new Set([...ownIds, ...clicks.map((c) => c?.anonymousId)].filter((id): id is string => typeof id === 'string'));
  const visitorRows = await profiles.visitors(workspace.id, [...wanted]);
  const visitorsById = new Map(visitorRows.map((v) => [v.anonymous_id, v]));

  return candidates.map((_, i) => {
    const walk = walks[i] as IdentityWalk;
    const click = clicks[i] ?? null;
    const clicker = click?.anonymousId ?? undefined;
    const ownId = ownIds[i];
    return {
      walk,
      linkedVisitors: (visitorsOf[i] as string[]).length,
      attribution: attributions[i] as AttributionDecision<ChosenClick>,
      click,
      identityPath: clicker === undefined ? null : (walk.pathTo({ kind: 'anonymous_id', value: clicker }) ?? null),
      ttp: readTtp(messages[i] as TrackedMessage) ?? (ownId && visitorsById.get(ownId)?.ttp) ?? (clicker && visitorsById.get(clicker)?.ttp) ?? null,
      visitors: ownersFirst(visitorsById, ownId, clicker),
    };
  });
}

import type { ChosenClick, PrepareCandidate } from '../../db/repositories/conversion-groups';
import type { Repositories } from '../../db/repositories';
import type { IdentityPathNode } from '../../db/types';
import { chooseClick, latestCountedClickTime } from '../../domain/attribution';
import { meaningfulIdentifier } from '../../domain/identifiers';
import { walkIdentities, type IdentityWalk } from '../../domain/identity-walk';
import { readTtp, type TrackedMessage } from '../../domain/message';
import type { VisitorKeys } from '../../domain/match-keys';
import { messageIdentities } from '../../domain/observation';
import { ownersFirst } from '../visitor-keys';

export interface ResolvedIdentity {
  walk: IdentityWalk;
  /** Anonymous IDs linked to the converting user (its own included). */
  linkedVisitors: number;
  /** The most recent click before the conversion (at any age: the window is checked next). */
  click: ChosenClick | null;
  /** From the converting message's identifier to the click's visitor; null without a click. */
  identityPath: IdentityPathNode[] | null;
  ttp: string | null;
  /** The converting visitor's profile first, then the one that clicked: sources of match keys. */
  visitors: VisitorKeys[];
}

/**
 * Identity for a whole group, with a handful of statements whatever its size: the identity walks hop by hop, each
 * visitor's latest click before its conversion, and the visitors' `_ttp`. Per conversion the result is what the
 * per-conversion step found: every visitor linked through user ID, anonymous ID or hashed email/phone; the most recent
 * click before the conversion (last click wins); `_ttp` from the converting device, else the device that clicked; and
 * those two visitors' profiles, whose latest page views may lend their device details to the conversion.
 */
export async function resolveIdentities(
  profiles: Repositories['profiles'],
  workspace: { id: string; defaultPhoneRegion: string },
  candidates: readonly PrepareCandidate[],
): Promise<ResolvedIdentity[]> {
  const messages = candidates.map((c) => c.message as unknown as TrackedMessage);
  const walks = await walkIdentities(
    messages.map((m) => messageIdentities(m, workspace.defaultPhoneRegion)),
    (nodes) => profiles.linksFrom(workspace.id, nodes),
  );
  const visitorsOf = walks.map((walk) => walk.values('anonymous_id'));
  const notAfter = candidates.map((c) => latestCountedClickTime(c.eventTime));

  const asked = new Map<string, { anonymousId: string; notAfter: Date }>();
  visitorsOf.forEach((ids, i) => {
    for (const anonymousId of ids) asked.set(`${anonymousId}\u0000${(notAfter[i] as Date).toISOString()}`, { anonymousId, notAfter: notAfter[i] as Date });
  });
  const clickRows = await profiles.latestClicks(workspace.id, [...asked.values()]);
  const clicksAsked = new Map(clickRows.map((row) => [`${row.anonymous_id}\u0000${row.not_after.toISOString()}`, row]));

  const clicks = candidates.map((candidate, i) => {
    const rows = (visitorsOf[i] as string[]).flatMap((id) => clicksAsked.get(`${id}\u0000${(notAfter[i] as Date).toISOString()}`) ?? []);
    const decision = chooseClick(
      rows.map((r) => ({ anonymousId: r.anonymous_id, ttclid: r.ttclid, capturedAt: r.captured_at })),
      candidate.eventTime,
      Number.POSITIVE_INFINITY,
    );
    if (!decision.attributed) return null;
    const row = rows.find((r) => r.anonymous_id === decision.click.anonymousId && r.ttclid === decision.click.ttclid);
    return { ...decision.click, campaignId: row?.campaign_id ?? null, adgroupId: row?.adgroup_id ?? null, adId: row?.ad_id ?? null };
  });

  const ownIds = messages.map((m) => meaningfulIdentifier(m.anonymousId));
  const wanted = new Set([...ownIds, ...clicks.map((c) => c?.anonymousId)].filter((id): id is string => id !== undefined));
  const visitorRows = await profiles.visitors(workspace.id, [...wanted]);
  const ttps = new Map(visitorRows.map((v) => [v.anonymous_id, v.ttp ?? undefined]));

  return candidates.map((_, i) => {
    const walk = walks[i] as IdentityWalk;
    const click = clicks[i] ?? null;
    const ownId = ownIds[i];
    return {
      walk,
      linkedVisitors: (visitorsOf[i] as string[]).length,
      click,
      identityPath: click === null ? null : (walk.pathTo({ kind: 'anonymous_id', value: click.anonymousId }) ?? null),
      ttp: readTtp(messages[i] as TrackedMessage) ?? (ownId && ttps.get(ownId)) ?? (click && ttps.get(click.anonymousId)) ?? null,
      visitors: ownersFirst(visitorRows, ownId, click?.anonymousId),
    };
  });
}

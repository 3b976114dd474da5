import type { VisitorRow } from '../db/types';
import type { VisitorKeys } from '../domain/match-keys';

/** A visitor's profile as a source of match keys: its `_ttp` and its latest page view's device details. */
export function visitorKeys(row: VisitorRow): VisitorKeys {
  return {
    anonymousId: row.anonymous_id,
    ttp: row.ttp ?? undefined,
    ip: row.device_ip ?? undefined,
    userAgent: row.device_user_agent ?? undefined,
    pageUrl: row.device_page_url ?? undefined,
    deviceSeenAt: row.device_seen_at ?? undefined,
  };
}

/** The converting visitor's profile first, then the one that clicked (each once), from the profiles by anonymous ID. */
export function ownersFirst(byAnonymousId: ReadonlyMap<string, VisitorRow>, ownId: string | undefined, clickId: string | undefined): VisitorKeys[] {
  const owners = [...new Set([ownId, clickId].filter((id): id is string => id !== undefined))];
  return owners.flatMap((id) => {
    const row = byAnonymousId.get(id);
    return row === undefined ? [] : [visitorKeys(row)];
  });
}

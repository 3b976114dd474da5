import { hashEmail, hashPhone } from './hashing';
import { meaningfulIdentifier } from './identifiers';
import type { IdentityNode } from './observation';

/** Whom an erasure request names: any of the person's identifiers, as the business knows them. */
export interface ErasureSubject {
  userId?: string;
  anonymousId?: string;
  email?: string;
  phone?: string;
}

export type SubjectField = keyof ErasureSubject;

/** The identity-graph nodes a subject names (email and phone hashed as at ingest), or the fields that name nobody. */
export function subjectNodes(subject: ErasureSubject, defaultPhoneRegion: string): { nodes: IdentityNode[]; unreadable: SubjectField[] } {
  const nodes: IdentityNode[] = [];
  const unreadable: SubjectField[] = [];
  const add = (field: SubjectField, kind: IdentityNode['kind'], value: string | undefined) => {
    if (subject[field] === undefined) return;
    if (value === undefined) unreadable.push(field);
    else nodes.push({ kind, value });
  };
  add('userId', 'user_id', meaningfulIdentifier(subject.userId));
  add('anonymousId', 'anonymous_id', meaningfulIdentifier(subject.anonymousId));
  add('email', 'email_sha256', hashEmail(subject.email));
  add('phone', 'phone_sha256', hashPhone(subject.phone, defaultPhoneRegion));
  return { nodes, unreadable };
}

/** TikTok's commerce properties (reference §1.4): what a purchase was worth, never who made it or what they typed. */
const COMMERCE_PROPERTIES = ['value', 'currency', 'content_type', 'contents', 'content_ids', 'num_items', 'order_id', 'shop_id'];

function commerceOnly(properties: unknown): Record<string, unknown> | undefined {
  if (typeof properties !== 'object' || properties === null) return undefined;
  const kept = Object.entries(properties).filter(([key]) => COMMERCE_PROPERTIES.includes(key));
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * A stored TikTok request without what identifies the person: each event's `user` (hashes, click ID, `_ttp`, IP,
 * user agent, device IDs), its `page` (URLs carry click IDs and sometimes emails) and properties beyond commerce.
 */
export function withoutPersonalData(payload: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(payload.data)) return payload;
  const data = payload.data.map((event: unknown) => {
    if (typeof event !== 'object' || event === null) return event;
    const { user: _user, page: _page, properties, ...rest } = event as Record<string, unknown>;
    const kept = commerceOnly(properties);
    return kept === undefined ? rest : { ...rest, properties: kept };
  });
  return { ...payload, data };
}

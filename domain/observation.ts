import { readAdClickIds, type AdClickIds } from './ad-click';
import { hashEach, hashEmail, hashPhone } from './hashing';
import { meaningfulIdentifier } from './identifiers';
import { pageUrl, readDeviceContext, readEmails, readPhones, readTtclid, readTtp, type TrackedMessage } from './message';

export type IdentityKind = 'anonymous_id' | 'user_id' | 'email_sha256' | 'phone_sha256';

export interface IdentityNode {
  kind: IdentityKind;
  value: string;
}

export interface IdentityLink {
  from: IdentityNode;
  to: IdentityNode;
}

export interface VisitorSighting {
  anonymousId: string;
  seenAt: Date;
  ttclid?: string;
  ttp?: string;
  pageUrl?: string;
  /** The ad the click came from, when the landing URL carries its IDs (only with a `ttclid`). */
  ad?: AdClickIds;
  /** A page view's device details, match keys for conversions reported later without them (e.g. from a backend). */
  device?: DeviceDetails;
}

export interface DeviceDetails {
  ip?: string;
  userAgent?: string;
  pageUrl?: string;
}

/** What one message tells us about visitors and identities. */
export interface Observation {
  identities: IdentityNode[];
  links: IdentityLink[];
  sighting?: VisitorSighting;
}

/** The identifiers a message carries (junk dropped, email and phone hashed), strongest first. */
export function messageIdentities(message: TrackedMessage, defaultPhoneRegion: string): IdentityNode[] {
  const nodes: IdentityNode[] = [];
  const userId = meaningfulIdentifier(message.userId);
  const anonymousId = meaningfulIdentifier(message.anonymousId);
  // One email and one phone link the message's identities; a message listing several sends them all to TikTok only.
  const [email] = hashEach(readEmails(message), hashEmail);
  const [phone] = hashEach(readPhones(message), (raw) => hashPhone(raw, defaultPhoneRegion));
  if (userId !== undefined) nodes.push({ kind: 'user_id', value: userId });
  if (anonymousId !== undefined) nodes.push({ kind: 'anonymous_id', value: anonymousId });
  if (email !== undefined) nodes.push({ kind: 'email_sha256', value: email });
  if (phone !== undefined) nodes.push({ kind: 'phone_sha256', value: phone });
  return nodes;
}

/**
 * Links every identifier of a message to its strongest one (the user ID, else the anonymous ID), so an anonymous
 * visitor joins its user and a user joins every device that shared its email or phone (spec §2.6, §6.4).
 */
export function observe(message: TrackedMessage, occurredAt: Date, defaultPhoneRegion: string): Observation {
  const identities = messageIdentities(message, defaultPhoneRegion);
  const [primary, ...others] = identities;
  const links = primary === undefined ? [] : others.map((other) => ({ from: primary, to: other }));

  const previousId = meaningfulIdentifier(message.previousId);
  if (message.type === 'alias' && previousId !== undefined && primary?.kind === 'user_id') {
    links.push({ from: primary, to: { kind: 'anonymous_id', value: previousId } });
    if (previousId !== primary.value) links.push({ from: primary, to: { kind: 'user_id', value: previousId } });
  }

  const anonymousId = meaningfulIdentifier(message.anonymousId);
  if (anonymousId === undefined) return { identities, links };
  const ttclid = readTtclid(message);
  const url = pageUrl(message);
  const sighting: VisitorSighting = { anonymousId, seenAt: occurredAt, ttclid, ttp: readTtp(message), pageUrl: url };
  const ad = ttclid === undefined ? {} : readAdClickIds(url);
  if (Object.keys(ad).length > 0) sighting.ad = ad;
  const { ip, userAgent } = readDeviceContext(message);
  if (message.type === 'page' && (ip !== undefined || userAgent !== undefined)) sighting.device = { ip, userAgent, pageUrl: url };
  return { identities, links, sighting };
}

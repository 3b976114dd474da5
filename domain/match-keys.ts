import { PERSON_KEYS, type PersonKeys } from './advanced-matching';
import type { Click } from './attribution';
import type { TikTokUser } from './tiktok-wire';

/** Where each match key sent to TikTok came from, stored with the conversion (`conversions.match_keys`). */
export type MatchKey =
  | 'ttclid' | 'ttp' | 'email' | 'phone' | 'external_id' | 'first_name' | 'last_name' | 'city' | 'state' | 'country' | 'zip_code'
  | 'ip' | 'user_agent' | 'page_url' | 'locale' | 'idfa' | 'idfv' | 'gaid';

/** `message`: the converting message itself; `visitor`: a linked visitor's profile or page views (its anonymous ID); `identity`: linked hashed identifiers. */
export interface MatchKeySource {
  source: 'message' | 'visitor' | 'identity';
  anonymousId?: string;
}

export type MatchKeySources = Partial<Record<MatchKey, MatchKeySource>>;

const DAY_MS = 86_400_000;
/** TikTok accepts one or more hashed values (§1.3); a few are plenty and keep a shared identity from flooding it. */
const MAX_HASHES = 5;

/** What the converting message itself carries; emails, phones and external IDs (the user ID first) already hashed. */
export interface MessageKeys {
  emails?: readonly string[];
  phones?: readonly string[];
  externalIds?: readonly string[];
  /** Name and address, hashed (advanced matching). */
  person?: PersonKeys;
  ip?: string;
  userAgent?: string;
  locale?: string;
  pageUrl?: string;
  ttp?: string;
}

/** A linked visitor's profile: its `_ttp` and its latest page view's device details. */
export interface VisitorKeys {
  anonymousId: string;
  ttp?: string;
  ip?: string;
  userAgent?: string;
  pageUrl?: string;
  deviceSeenAt?: Date;
}

export interface MatchKeyFacts {
  message: MessageKeys;
  /** Hashed emails and phones linked to the converting user, used when the message has none of its own. */
  linked: { emails: readonly string[]; phones: readonly string[] };
  /** The click sent: the converting message's own, or a linked visitor's. */
  click?: Pick<Click, 'ttclid' | 'anonymousId' | 'source'>;
  /** The `_ttp` chosen for the conversion (the message's, else a linked visitor's). */
  ttp?: string;
  /** The converting visitor first, then the visitor that clicked: whose device details may stand in for the message's. */
  visitors: readonly VisitorKeys[];
  eventTime: Date;
  attributionWindowDays: number;
}

export interface MatchKeys {
  /** Only hashed PII, and the device keys TikTok takes in plain. */
  user: TikTokUser;
  /** The page URL to send when the message carries none. */
  pageUrl?: string;
  sources: MatchKeySources;
}

function oneOrMany(values: readonly string[]): string | string[] | undefined {
  const unique = [...new Set(values)].slice(0, MAX_HASHES);
  return unique.length === 0 ? undefined : unique.length === 1 ? unique[0] : unique;
}

const fromMessage: MatchKeySource = { source: 'message' };
const fromVisitor = (anonymousId: string): MatchKeySource => ({ source: 'visitor', anonymousId });

/** Device details are the visitor's only while they are recent: seen within the attribution window of the conversion. */
function recentDevice(visitor: VisitorKeys, eventTime: Date, windowDays: number): boolean {
  if (visitor.deviceSeenAt === undefined || (visitor.ip === undefined && visitor.userAgent === undefined)) return false;
  return Math.abs(eventTime.getTime() - visitor.deviceSeenAt.getTime()) <= windowDays * DAY_MS;
}

/**
 * Every match key Signalbox legitimately holds for the conversion, and where each came from. The message's own keys
 * win. IP address and user agent travel as a pair from one device: the message's, else the latest page view of the
 * converting visitor, else of the visitor that clicked, within the attribution window. Email and phone come from the
 * message, else from identities linked to the user (its own devices).
 */
export function chooseMatchKeys(facts: MatchKeyFacts): MatchKeys {
  const { message, linked } = facts;
  const user: TikTokUser = {};
  const sources: MatchKeySources = {};
  const set = <K extends keyof TikTokUser & keyof MatchKeySources>(key: K, value: TikTokUser[K] | undefined, source: MatchKeySource) => {
    if (value === undefined) return;
    user[key] = value;
    sources[key] = source;
  };

  const own = (values: readonly string[] | undefined) => values !== undefined && values.length > 0;
  set('email', oneOrMany(own(message.emails) ? (message.emails as string[]) : linked.emails), own(message.emails) ? fromMessage : { source: 'identity' });
  set('phone', oneOrMany(own(message.phones) ? (message.phones as string[]) : linked.phones), own(message.phones) ? fromMessage : { source: 'identity' });
  set('external_id', oneOrMany(message.externalIds ?? []), fromMessage);
  for (const key of PERSON_KEYS) set(key, message.person?.[key], fromMessage);
  const { click } = facts;
  if (click !== undefined) set('ttclid', click.ttclid, click.source === 'visitor' && click.anonymousId !== null ? fromVisitor(click.anonymousId) : fromMessage);
  if (facts.ttp !== undefined) {
    const owner = facts.visitors.find((v) => v.ttp === facts.ttp);
    set('ttp', facts.ttp, message.ttp === facts.ttp || owner === undefined ? fromMessage : fromVisitor(owner.anonymousId));
  }

  let pageUrl: string | undefined;
  if (message.ip !== undefined || message.userAgent !== undefined) {
    set('ip', message.ip, fromMessage);
    set('user_agent', message.userAgent, fromMessage);
  } else {
    const device = facts.visitors.find((v) => recentDevice(v, facts.eventTime, facts.attributionWindowDays));
    if (device !== undefined) {
      set('ip', device.ip, fromVisitor(device.anonymousId));
      set('user_agent', device.userAgent, fromVisitor(device.anonymousId));
      if (message.pageUrl === undefined && device.pageUrl !== undefined) {
        pageUrl = device.pageUrl;
        sources.page_url = fromVisitor(device.anonymousId);
      }
    }
  }
  if (message.pageUrl !== undefined) sources.page_url = fromMessage;
  set('locale', message.locale, fromMessage);
  return pageUrl === undefined ? { user, sources } : { user, pageUrl, sources };
}

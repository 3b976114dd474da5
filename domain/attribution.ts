import { LATEST_TIME_MS } from '../sdk/src/rules/index.js';

/**
 * Where a conversion's click was found. `message`: the converting event carries it (`context.ttclid`,
 * `properties.ttclid`, a page URL's `?ttclid=`; for a Shopify order, its `ttclid` cart attribute or the `?ttclid=` of
 * its `landing_site`). `visitor`: a visitor's profile holds it, the converting visitor's own or one linked to the
 * person through their identity (user ID, hashed email or phone).
 */
export type ClickSource = 'message' | 'visitor';

export interface Click {
  ttclid: string;
  /** When it was made: when its landing page was first seen, or the event's time for a click only its event carries. */
  capturedAt: Date;
  /** The visitor who clicked; null for a click only the converting event carries, when that event names no visitor. */
  anonymousId: string | null;
  source: ClickSource;
}

export type AttributionDecision<C extends Click = Click> =
  | { attributed: true; click: C }
  | { attributed: false; reason: 'no_ttclid' }
  | { attributed: false; reason: 'click_outside_attribution_window'; click: C };

const DAY_MS = 86_400_000;
/** Browser and server clocks disagree a little; a click stamped slightly after the conversion still counts. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The latest capture time of a click that may count for a conversion: the conversion's time plus the skew allowance,
 * but never past 9999-12-31T23:59:59.999Z, the last instant ingest stores (a purchase stamped at the very end of year
 * 9999 would otherwise ask PostgreSQL for clicks before a year-10000 time it cannot read).
 */
export function latestCountedClickTime(conversionTime: Date): Date {
  return new Date(Math.min(conversionTime.getTime() + CLOCK_SKEW_MS, LATEST_TIME_MS));
}

/** A visitor on which a `ttclid` was seen, and when first (ingest keeps each visitor's first sighting of a click). */
export interface ClickSighting {
  anonymousId: string;
  capturedAt: Date;
}

/**
 * The converting event's own click, timed. A click is made when its landing page is seen: the first sighting of the
 * same `ttclid` on one of the person's visitors says when and on which device (ingest has stored the event's own,
 * under its anonymous ID, at the event's time or at an earlier page view). A click seen on no visitor, such as the
 * `landing_site` `?ttclid=` of a returning Shopify customer's order that names no cart, is timed at the event: the
 * visit its landing page opened came before the order, and an order carries no time for that page, so the order's own
 * time (`processed_at`, else `created_at`: the event's timestamp) is the best there is, and the latest the click can
 * have been made.
 */
export function messageClick(ttclid: string, event: { time: Date; anonymousId: string | undefined }, sightings: readonly ClickSighting[]): Click {
  const first = sightings.reduce<ClickSighting | undefined>((earliest, seen) => (earliest === undefined || seen.capturedAt < earliest.capturedAt ? seen : earliest), undefined);
  const capturedAt = first !== undefined && first.capturedAt < event.time ? first.capturedAt : event.time;
  return { ttclid, capturedAt, anonymousId: first?.anonymousId ?? event.anonymousId ?? null, source: 'message' };
}

/**
 * Every click known for a conversion: its event's own, if it carries one, and the latest of each of the person's
 * visitors. A visitor's sighting of the event's own `ttclid` is that same click, which `messageClick` timed already.
 */
export function knownClicks<C extends Click>(own: C | undefined, visitors: readonly C[]): C[] {
  if (own === undefined) return [...visitors];
  return [own, ...visitors.filter((click) => click.ttclid !== own.ttclid)];
}

/** Whether `a` is the later click; at the same time the converting event's own click, which brought the conversion. */
function isLater(a: Click, b: Click): boolean {
  if (a.capturedAt.getTime() !== b.capturedAt.getTime()) return a.capturedAt > b.capturedAt;
  return a.source === 'message' && b.source !== 'message';
}

/**
 * Last click wins (spec §4.3, §6.4): of every click known for the conversion, its own event's and those on the
 * person's visitors (the converting visitor's and every linked one's), the latest made at or before the conversion
 * (one made up to CLOCK_SKEW_MS after it counts), attributed when it is no older than the window. When that latest click
 * is older, so is every other: the conversion is not attributed, and the click is kept to explain why.
 */
export function chooseClick<C extends Click>(clicks: readonly C[], conversionTime: Date, windowDays: number): AttributionDecision<C> {
  const notAfter = latestCountedClickTime(conversionTime);
  const latest = clicks.reduce<C | undefined>((best, click) => (click.capturedAt <= notAfter && (best === undefined || isLater(click, best)) ? click : best), undefined);
  if (latest === undefined) return { attributed: false, reason: 'no_ttclid' };
  const age = conversionTime.getTime() - latest.capturedAt.getTime();
  if (age > windowDays * DAY_MS) return { attributed: false, reason: 'click_outside_attribution_window', click: latest };
  return { attributed: true, click: latest };
}

/**
 * Whether a conversion goes to TikTok once its click is known, and on what. `click`: its click inside the window
 * (spec §6.4), the only way by default. `device`: an app event with an advertising ID, which TikTok attributes by
 * device. `match_keys`: no click inside the window (none at all, or only an older one), sent because the workspace
 * lets TikTok match such conversions on its other keys (`matchWithoutClick`, issue 18); the conversion says so.
 * `person`: an offline or CRM event, which carries no click: TikTok matches it on the person's hashed email, phone
 * and external ID (issue 45).
 */
export type SendDecision =
  | { send: true; by: 'click' | 'device' | 'match_keys' | 'person' }
  | { send: false; reason: 'no_ttclid' | 'click_outside_attribution_window' };

export function decideSend(decision: AttributionDecision, facts: { advertisingId: boolean; matchWithoutClick: boolean; matchedOnPerson?: boolean }): SendDecision {
  if (facts.matchedOnPerson === true) return { send: true, by: 'person' };
  if (decision.attributed) return { send: true, by: 'click' };
  if (facts.advertisingId) return { send: true, by: 'device' };
  if (facts.matchWithoutClick) return { send: true, by: 'match_keys' };
  return { send: false, reason: decision.reason };
}

import { isCustomTikTokEvent, TIKTOK_STANDARD_EVENTS } from './event-mapping';
import type { RuleDestination } from './event-source';

export { additionalEventId, ruleEvents } from '../sdk/src/rules/event-id.js';

/**
 * How many TikTok events a rule may send each of its events as besides its own (issue 18): `Order Completed` as
 * CompletePayment and also PlaceAnOrder. Each is a conversion of its own, delivered, retried and explained on its own.
 */
export const MAX_ADDITIONAL_EVENTS = 3;

const STANDARD_BY_LOWER_CASE = new Map([...TIKTOK_STANDARD_EVENTS].map((name) => [name.toLowerCase(), name]));

function notStandard(name: string): string {
  const meant = STANDARD_BY_LOWER_CASE.get(name.toLowerCase());
  const hint = meant === undefined ? `one of ${[...TIKTOK_STANDARD_EVENTS].sort().join(', ')}` : `did you mean ${meant}?`;
  return `names ${JSON.stringify(name)}, which is not a TikTok standard event: ${hint}`;
}

/**
 * What is wrong with a rule's additional TikTok events, one phrase per problem to follow the field's name; empty when
 * they are fine. At most MAX_ADDITIONAL_EVENTS, each a TikTok standard event, named once, not the rule's own TikTok event.
 */
export function additionalEventProblems(tiktokEvent: string, alsoSendAs: readonly string[]): string[] {
  if (alsoSendAs.length > MAX_ADDITIONAL_EVENTS) return [`must name at most ${MAX_ADDITIONAL_EVENTS} TikTok events, not ${alsoSendAs.length}`];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of alsoSendAs) {
    if (!TIKTOK_STANDARD_EVENTS.has(name)) problems.push(notStandard(name));
    else if (name === tiktokEvent) problems.push(`names ${name}, the rule's own TikTok event, which is sent already`);
    else if (seen.has(name)) problems.push(`names ${name} twice`);
    seen.add(name);
  }
  return problems;
}

/**
 * What is wrong with a rule's TikTok events for where it sends them, each message naming its field; empty when they
 * are fine. An Offline Event Set takes standard events only, a CRM Event Set custom events only (reference §1.2, §4.2),
 * so a CRM rule has no additional events, which are standard.
 */
export function destinationProblems(destination: RuleDestination, tiktokEvent: string, alsoSendAs: readonly string[]): string[] {
  if (destination === 'offline' && isCustomTikTokEvent(tiktokEvent)) {
    return [`tiktokEvent ${notStandard(tiktokEvent)}; a rule sending to the Offline Event Set takes standard events only`];
  }
  if (destination !== 'crm') return [];
  const problems: string[] = [];
  if (!isCustomTikTokEvent(tiktokEvent)) {
    problems.push(`tiktokEvent names ${tiktokEvent}, a TikTok standard event, but a rule sending to the CRM Event Set takes custom events only: name the lead's stage, e.g. "Lead Qualified"`);
  }
  if (alsoSendAs.length > 0) problems.push('alsoSendAs must be empty for a rule sending to the CRM Event Set: its events are TikTok standard events, which that set does not take');
  return problems;
}

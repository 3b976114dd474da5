import { TIKTOK_STANDARD_EVENTS } from './event-mapping';

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

import type { ConversionRule } from '../../db/repositories/conversion-rules';
import { eventMapping } from '../../domain/event-mapping';
import { additionalEventId } from '../../domain/rule-events';

function mappingText(rule: ConversionRule, tiktokEventGiven: boolean): string {
  if (tiktokEventGiven) return `${rule.sourceEvent} is sent to TikTok as ${rule.tiktokEvent}`;
  const mapping = eventMapping(rule.sourceEvent);
  if (mapping.origin === 'standard') return `${rule.sourceEvent} is a standard event: sent to TikTok as ${rule.tiktokEvent}`;
  if (mapping.origin === 'segment') {
    const name = mapping.knownAs === rule.sourceEvent ? 'a Segment spec event' : `Segment's ${mapping.knownAs}`;
    return `${rule.sourceEvent} is ${name}: sent to TikTok as ${rule.tiktokEvent}`;
  }
  if (mapping.origin === 'tiktok') return `${rule.sourceEvent} is a TikTok standard event: sent to TikTok under its own name`;
  return `${rule.sourceEvent} is neither a standard nor a Segment spec event: sent to TikTok as a custom event under its own name, with its properties`;
}

function valueText(rule: ConversionRule): string {
  if (rule.valueSource === 'fixed') return `valued at ${rule.fixedValue} ${rule.currency}`;
  if (rule.valueSource === 'none') return 'without a value';
  const fallback = rule.currency === null ? '' : ` (${rule.currency} when the event names no currency)`;
  return `valued at the amount in the event: properties.total, else value, revenue, or price × quantity${fallback}`;
}

function additionalText(rule: ConversionRule): string {
  const [first] = rule.alsoSendAs;
  if (first === undefined) return '';
  const example = additionalEventId('<event_id>', first);
  return ` Each is also sent as ${rule.alsoSendAs.join(', ')}: one conversion per TikTok event, the additional ones under their own event_id (${example}); ${rule.tiktokEvent} keeps the plain event_id, which the browser pixel shares.`;
}

function serverOnlyText(rule: ConversionRule): string {
  return rule.serverOnly ? " Sent by the server only: the tracking tag does not report these events to TikTok's browser pixel." : '';
}

const DESTINATION_TEXT: Record<ConversionRule['destination'], string> = {
  auto: '',
  web: ' Always sent to the pixel (web), even from an app or a store.',
  app: ' Always sent to the TikTok app (app).',
  offline: " Always sent to the Offline Event Set (offline): TikTok matches them on the customer's email, phone or ID, without a click.",
  crm: " Sent to the CRM Event Set (crm), each with its lead (properties.lead_id, and the CRM's name from properties.lead_event_source): TikTok matches them on the customer's email, phone or ID, without a click.",
};

/** What `PUT …/conversion-rules/:event` chose, in a sentence or two for the person who asked, defaults included. */
export function ruleChoice(rule: ConversionRule, given: { tiktokEvent: boolean }): string {
  return `${mappingText(rule, given.tiktokEvent)}, ${valueText(rule)}.${additionalText(rule)}${serverOnlyText(rule)}${DESTINATION_TEXT[rule.destination]}`;
}

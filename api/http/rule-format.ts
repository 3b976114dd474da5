import { z } from 'zod';
import type { ConversionRule } from '../../db/repositories/conversion-rules';
import { eventMapping, valuedByDefault } from '../../domain/event-mapping';
import { MAX_NAME_LENGTH } from '../../sdk/src/rules/index.js';
import { additionalEventProblems } from '../../domain/rule-events';
import { currencyCode, jsonBody } from './fields';
import { badRequest } from './http-error';

/** Far below what numeric(18,4) holds: a single conversion worth more than a billion is a typo. */
const MAX_FIXED_AMOUNT = 1_000_000_000;

const amount = z
  .number({ error: (issue) => (issue.input === undefined ? 'is required for a fixed value' : 'must be a number') })
  .positive('must be a positive number')
  .max(MAX_FIXED_AMOUNT, `must be at most ${MAX_FIXED_AMOUNT}`);

const value = z.discriminatedUnion(
  'source',
  [
    jsonBody({ source: z.literal('order_total'), currency: currencyCode.optional() }),
    jsonBody({ source: z.literal('fixed'), amount, currency: currencyCode }),
    jsonBody({ source: z.literal('none') }),
  ],
  { error: 'must be one of order_total, fixed, none' },
);

export const ruleBody = jsonBody({
  tiktokEvent: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .optional(),
  /** Checked in `ruleFromBody`, against the rule's TikTok event (which the event's name may decide). */
  alsoSendAs: z
    .array(z.string({ error: 'must be a TikTok event name' }).trim().max(100, 'must be at most 100 characters'), { error: 'must be a list of TikTok event names, e.g. ["PlaceAnOrder"]' })
    .optional(),
  value: value.optional(),
});

/** An event name as ingest accepts it (the wire contract's limit), so every event that arrives can have a rule. */
export const eventParam = z.object({
  event: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
});

export type RuleValue = z.infer<typeof value>;

/**
 * The stored rule for `PUT .../conversion-rules/:event`, with the documented defaults filled in (no `alsoSendAs`: the
 * rule's own TikTok event only); a 400 naming `alsoSendAs` when its events cannot go with the rule's.
 */
export function ruleFromBody(sourceEvent: string, body: z.infer<typeof ruleBody>): ConversionRule {
  const tiktokEvent = body.tiktokEvent ?? eventMapping(sourceEvent).tiktokEvent;
  const alsoSendAs = body.alsoSendAs ?? [];
  const problems = additionalEventProblems(tiktokEvent, alsoSendAs).map((problem) => `alsoSendAs ${problem}`);
  if (problems.length > 0) throw badRequest(problems.join('; '), problems);
  const chosen: RuleValue = body.value ?? { source: valuedByDefault(sourceEvent, tiktokEvent) ? 'order_total' : 'none' };
  return {
    sourceEvent,
    tiktokEvent,
    alsoSendAs,
    valueSource: chosen.source,
    fixedValue: chosen.source === 'fixed' ? chosen.amount : null,
    currency: chosen.source === 'none' ? null : (chosen.currency ?? null),
  };
}

/** The same shape the API accepts, so a rule read back can be sent again unchanged. */
export function ruleView(rule: ConversionRule) {
  const currency = rule.currency === null ? {} : { currency: rule.currency };
  const valueView =
    rule.valueSource === 'fixed' ? { source: 'fixed', amount: rule.fixedValue, ...currency } : rule.valueSource === 'order_total' ? { source: 'order_total', ...currency } : { source: 'none' };
  return { event: rule.sourceEvent, tiktokEvent: rule.tiktokEvent, alsoSendAs: rule.alsoSendAs, value: valueView };
}

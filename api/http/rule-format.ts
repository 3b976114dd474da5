import type { z } from 'zod';
import type { RuleValue, ruleBody } from '../../contract/rules';
import type { ConversionRule } from '../../db/repositories/conversion-rules';
import { eventMapping, valuedByDefault } from '../../domain/event-mapping';
import { additionalEventProblems, destinationProblems } from '../../domain/rule-events';
import { badRequest } from './http-error';

/**
 * The stored rule for `PUT .../conversion-rules/:event`, with the documented defaults filled in (no `alsoSendAs`: the
 * rule's own TikTok event only; no `serverOnly`: the browser pixel may report its events too; no `destination`:
 * `auto`); a 400 naming `alsoSendAs` when its events cannot go with the rule's, or the field its destination cannot take.
 */
export function ruleFromBody(sourceEvent: string, body: z.infer<typeof ruleBody>): ConversionRule {
  const tiktokEvent = body.tiktokEvent ?? eventMapping(sourceEvent).tiktokEvent;
  const alsoSendAs = body.alsoSendAs ?? [];
  const destination = body.destination ?? 'auto';
  const problems = [...additionalEventProblems(tiktokEvent, alsoSendAs).map((problem) => `alsoSendAs ${problem}`), ...destinationProblems(destination, tiktokEvent, alsoSendAs)];
  if (problems.length > 0) throw badRequest(problems.join('; '), problems);
  const chosen: RuleValue = body.value ?? { source: valuedByDefault(sourceEvent, tiktokEvent) ? 'order_total' : 'none' };
  return {
    sourceEvent,
    tiktokEvent,
    alsoSendAs,
    valueSource: chosen.source,
    fixedValue: chosen.source === 'fixed' ? chosen.amount : null,
    currency: chosen.source === 'none' ? null : (chosen.currency ?? null),
    serverOnly: body.serverOnly ?? false,
    destination,
  };
}

/** The same shape the API accepts, so a rule read back can be sent again unchanged. */
export function ruleView(rule: ConversionRule) {
  const currency = rule.currency === null ? {} : { currency: rule.currency };
  const valueView =
    rule.valueSource === 'fixed' ? { source: 'fixed', amount: rule.fixedValue, ...currency } : rule.valueSource === 'order_total' ? { source: 'order_total', ...currency } : { source: 'none' };
  return { event: rule.sourceEvent, tiktokEvent: rule.tiktokEvent, alsoSendAs: rule.alsoSendAs, value: valueView, serverOnly: rule.serverOnly, destination: rule.destination };
}

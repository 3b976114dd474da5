import type { ConversionReason } from './reasons';

/** What decides whether sending a conversion again can change its outcome. */
export interface SendAgainContext {
  /** The workspace sends conversions without a click in the window (then a missing or old click no longer skips). */
  matchWithoutClick: boolean;
  /** Source events a conversion rule maps today. */
  ruleEvents: ReadonlySet<string>;
}

/** The most conversions one "Send again" by filter may put back: more is a job for the settings API, in parts. */
export const SEND_AGAIN_LIMIT = 10_000;

const WITHOUT_CLICK_HINT = 'turn on "Send conversions without a click" in Settings to have such conversions sent for TikTok to match on the other keys';

/**
 * Why sending this conversion again would only skip it again, in words; null when sending again can change the
 * outcome. Sending again runs the same checks as the first time, so a reason whose cause is not changed by a
 * setting, a rule or TikTok is met again.
 */
export function sendAgainRefusal(conversion: { status: string; reason: string | null; sourceEvent: string }, context: SendAgainContext): string | null {
  if (conversion.status !== 'failed' && conversion.status !== 'skipped') return `it is ${conversion.status}: only failed or skipped conversions are sent again`;
  switch (conversion.reason as ConversionReason | null) {
    case 'no_ttclid':
      return context.matchWithoutClick ? null : `no TikTok click is known for this person, so it would be skipped again; ${WITHOUT_CLICK_HINT}`;
    case 'click_outside_attribution_window':
      return context.matchWithoutClick ? null : `the click is older than the attribution window, so it would be skipped again; ${WITHOUT_CLICK_HINT}`;
    case 'conversion_rule_removed':
      return context.ruleEvents.has(conversion.sourceEvent) ? null : `no conversion rule maps “${conversion.sourceEvent}” now, so it would be skipped again; add the rule first`;
    case 'expired':
      return "it is older than TikTok's 28-day event-time horizon: TikTok would no longer count it";
    case 'lead_id_missing':
      return 'its event names no lead (properties.lead_id), so it would be skipped again; send the event again with the lead\'s ID from your CRM';
    default:
      return null;
  }
}

/** The filter form of `sendAgainRefusal`: conversions with these reasons are left out of a send-again by filter. */
export function reasonsThatSkipAgain(context: Pick<SendAgainContext, 'matchWithoutClick'>): { always: ConversionReason[]; unlessRuleMaps: ConversionReason } {
  const always: ConversionReason[] = context.matchWithoutClick ? ['expired'] : ['no_ttclid', 'click_outside_attribution_window', 'expired'];
  return { always: [...always, 'lead_id_missing'], unlessRuleMaps: 'conversion_rule_removed' };
}

import { reasonsThatSkipAgain, sendAgainRefusal } from './send-again';

const off = { matchWithoutClick: false, ruleEvents: new Set(['purchase']) };
const on = { matchWithoutClick: true, ruleEvents: new Set(['purchase']) };

describe('sendAgainRefusal', () => {
  it.each([
    ['skipped', 'no_ttclid', 'purchase', off, /no TikTok click is known/],
    ['skipped', 'no_ttclid', 'purchase', on, null],
    ['skipped', 'click_outside_attribution_window', 'purchase', off, /older than the attribution window/],
    ['skipped', 'click_outside_attribution_window', 'purchase', on, null],
    ['skipped', 'conversion_rule_removed', 'signup', on, /no conversion rule maps “signup”/],
    ['skipped', 'conversion_rule_removed', 'purchase', off, null],
    ['failed', 'expired', 'purchase', on, /28-day/],
    ['skipped', 'lead_id_missing', 'LeadQualified', on, /names no lead/],
    ['failed', 'tiktok_rejected', 'purchase', off, null],
    ['failed', null, 'purchase', off, null],
    ['skipped', 'tiktok_not_connected', 'purchase', off, null],
    ['delivered', null, 'purchase', off, /it is delivered/],
    ['pending', null, 'purchase', off, /it is pending/],
  ] as const)('%s with %s (%s) → %s', (status, reason, sourceEvent, context, expected) => {
    const refusal = sendAgainRefusal({ status, reason, sourceEvent }, context);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });

  it('leaves out of a send-again by filter exactly the reasons it refuses whatever the rules', () => {
    expect(reasonsThatSkipAgain(off).always.sort()).toEqual(['click_outside_attribution_window', 'expired', 'lead_id_missing', 'no_ttclid']);
    expect(reasonsThatSkipAgain(on).always).toEqual(['expired', 'lead_id_missing']);
  });
});

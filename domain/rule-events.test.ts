import { additionalEventId, additionalEventProblems, destinationProblems, MAX_ADDITIONAL_EVENTS, ruleEvents } from './rule-events';

describe('ruleEvents', () => {
  it("sends a rule without additional events as its own TikTok event under the message's event_id", () => {
    expect(ruleEvents({ tiktokEvent: 'CompletePayment', alsoSendAs: [] }, 'A-1001')).toEqual([{ tiktokEvent: 'CompletePayment', eventId: 'A-1001', index: 0 }]);
  });

  it('keeps the plain event_id for the rule\'s own event (pixel deduplication) and suffixes each additional one with its name', () => {
    expect(ruleEvents({ tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder', 'Purchase'] }, 'A-1001')).toEqual([
      { tiktokEvent: 'CompletePayment', eventId: 'A-1001', index: 0 },
      { tiktokEvent: 'PlaceAnOrder', eventId: 'A-1001:PlaceAnOrder', index: 1 },
      { tiktokEvent: 'Purchase', eventId: 'A-1001:Purchase', index: 2 },
    ]);
  });

  it('derives the same event_ids every time, so a resent order repeats its conversions instead of adding new ones', () => {
    const rule = { tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder'] };
    expect(ruleEvents(rule, 'A-1')).toEqual(ruleEvents(rule, 'A-1'));
    expect(additionalEventId('A-1', 'PlaceAnOrder')).not.toBe(additionalEventId('A-2', 'PlaceAnOrder'));
    expect(additionalEventId('A-1', 'PlaceAnOrder')).not.toBe(additionalEventId('A-1', 'Purchase'));
  });
});

describe('additionalEventProblems', () => {
  it('accepts none, or up to three distinct TikTok standard events other than the rule\'s own', () => {
    expect(additionalEventProblems('CompletePayment', [])).toEqual([]);
    expect(additionalEventProblems('CompletePayment', ['PlaceAnOrder', 'Purchase', 'AddPaymentInfo'])).toEqual([]);
    expect(additionalEventProblems('order_shipped', ['PlaceAnOrder'])).toEqual([]);
  });

  it('names an unknown event, and the right spelling when only its case is wrong', () => {
    expect(additionalEventProblems('CompletePayment', ['placeanorder'])).toEqual(['names "placeanorder", which is not a TikTok standard event: did you mean PlaceAnOrder?']);
    const [unknown] = additionalEventProblems('CompletePayment', ['OrderShipped']);
    expect(unknown).toMatch(/^names "OrderShipped", which is not a TikTok standard event: one of AddPaymentInfo, AddToCart, .*PlaceAnOrder, .*ViewContent$/);
  });

  it('refuses a name given twice, or the rule\'s own TikTok event again', () => {
    expect(additionalEventProblems('CompletePayment', ['PlaceAnOrder', 'PlaceAnOrder'])).toEqual(['names PlaceAnOrder twice']);
    expect(additionalEventProblems('CompletePayment', ['CompletePayment'])).toEqual(["names CompletePayment, the rule's own TikTok event, which is sent already"]);
  });

  it('refuses more than three, saying how many were given', () => {
    expect(MAX_ADDITIONAL_EVENTS).toBe(3);
    expect(additionalEventProblems('CompletePayment', ['PlaceAnOrder', 'Purchase', 'AddPaymentInfo', 'Subscribe'])).toEqual(['must name at most 3 TikTok events, not 4']);
  });
});

describe('destinationProblems', () => {
  it('takes any TikTok event for auto, web and app', () => {
    for (const destination of ['auto', 'web', 'app'] as const) expect(destinationProblems(destination, 'Lead Qualified', [])).toEqual([]);
  });

  it('wants a standard event for offline, naming tiktokEvent and the right spelling', () => {
    expect(destinationProblems('offline', 'CompletePayment', ['PlaceAnOrder'])).toEqual([]);
    expect(destinationProblems('offline', 'completepayment', [])).toEqual([
      'tiktokEvent names "completepayment", which is not a TikTok standard event: did you mean CompletePayment?; a rule sending to the Offline Event Set takes standard events only',
    ]);
  });

  it('wants a custom event and no additional (standard) events for crm', () => {
    expect(destinationProblems('crm', 'Lead Qualified', [])).toEqual([]);
    expect(destinationProblems('crm', 'Lead', ['SubmitForm'])).toEqual([
      'tiktokEvent names Lead, a TikTok standard event, but a rule sending to the CRM Event Set takes custom events only: name the lead\'s stage, e.g. "Lead Qualified"',
      'alsoSendAs must be empty for a rule sending to the CRM Event Set: its events are TikTok standard events, which that set does not take',
    ]);
  });
});

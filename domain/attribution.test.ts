import { chooseClick, CLOCK_SKEW_MS, decideSend, knownClicks, latestCountedClickTime, messageClick, type Click } from './attribution';

const DAY = 86_400_000;
const conversion = new Date('2026-06-30T12:00:00Z');
const daysBefore = (days: number) => new Date(conversion.getTime() - days * DAY);
const click = (anonymousId: string, days: number): Click => ({
  anonymousId,
  ttclid: `E.C.P.${anonymousId}`,
  capturedAt: daysBefore(days),
  source: 'visitor',
});

describe('chooseClick', () => {
  it('reports no ttclid when the visitor never clicked an ad', () => {
    expect(chooseClick([], conversion, 30)).toEqual({ attributed: false, reason: 'no_ttclid' });
  });

  it('attributes a click inside the window', () => {
    expect(chooseClick([click('a', 29)], conversion, 30)).toMatchObject({ attributed: true, click: { anonymousId: 'a' } });
  });

  it('does not attribute a click outside the window', () => {
    expect(chooseClick([click('a', 31)], conversion, 30)).toMatchObject({ attributed: false, reason: 'click_outside_attribution_window', click: { anonymousId: 'a' } });
  });

  it('uses the workspace window, not a fixed one', () => {
    expect(chooseClick([click('a', 8)], conversion, 7)).toMatchObject({ attributed: false });
    expect(chooseClick([click('a', 8)], conversion, 14)).toMatchObject({ attributed: true });
  });

  it('lets the most recent click win, across devices', () => {
    const decision = chooseClick([click('phone-old', 20), click('desktop', 2), click('phone', 5)], conversion, 30);
    expect(decision).toMatchObject({ attributed: true, click: { anonymousId: 'desktop' } });
  });

  it('ignores clicks after the conversion beyond clock skew', () => {
    const after = { ...click('later', 0), capturedAt: new Date(conversion.getTime() + CLOCK_SKEW_MS + 1000) };
    expect(chooseClick([after], conversion, 30)).toEqual({ attributed: false, reason: 'no_ttclid' });
    expect(chooseClick([after, click('a', 3)], conversion, 30)).toMatchObject({ attributed: true, click: { anonymousId: 'a' } });
  });
});

describe('the last click across sources: the converting event\'s own, the converting visitor\'s and the linked visitors\'', () => {
  const seen = (anonymousId: string, days: number) => ({ anonymousId, capturedAt: daysBefore(days) });
  const visitorClick = (anonymousId: string, ttclid: string, days: number): Click => ({ anonymousId, ttclid, capturedAt: daysBefore(days), source: 'visitor' });

  interface Case {
    name: string;
    /** The converting event: its own `ttclid` (if any), its visitor (if it names one), and where that ttclid was seen. */
    own?: { ttclid: string; anonymousId?: string; sightings: { anonymousId: string; capturedAt: Date }[] };
    /** The latest click of each of the person's visitors. */
    visitors: Click[];
    windowDays?: number;
    expected: { attributed: boolean; reason?: string; click?: Partial<Click> };
  }

  const cases: Case[] = [
    {
      name: "a returning customer's order landing from a new ad, on no visitor: its own click beats the earlier visit's found through the identity",
      own: { ttclid: 'B', sightings: [] },
      visitors: [visitorClick('earlier-visit', 'A', 3)],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message', anonymousId: null, capturedAt: conversion } },
    },
    {
      name: 'the same order on a visitor (its cart): its click, stored there at the order, wins as the event\'s own',
      own: { ttclid: 'B', anonymousId: 'cart', sightings: [seen('cart', 0)] },
      visitors: [visitorClick('earlier-visit', 'A', 3), visitorClick('cart', 'B', 0)],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message', anonymousId: 'cart', capturedAt: conversion } },
    },
    {
      name: 'a click the event carries but first seen 10 days ago (the tag keeps it) loses to a linked device\'s click 2 days ago',
      own: { ttclid: 'K', anonymousId: 'laptop', sightings: [seen('laptop', 10)] },
      visitors: [visitorClick('laptop', 'K', 10), visitorClick('phone', 'P', 2)],
      expected: { attributed: true, click: { ttclid: 'P', source: 'visitor', anonymousId: 'phone', capturedAt: daysBefore(2) } },
    },
    {
      name: 'the event\'s own click, first seen 2 days ago, beats a linked device\'s click 5 days ago, timed at its landing page',
      own: { ttclid: 'K', anonymousId: 'laptop', sightings: [seen('laptop', 2)] },
      visitors: [visitorClick('laptop', 'K', 2), visitorClick('phone', 'P', 5)],
      expected: { attributed: true, click: { ttclid: 'K', source: 'message', anonymousId: 'laptop', capturedAt: daysBefore(2) } },
    },
    {
      name: 'an order whose landing page was viewed on a linked visitor a day before: the click is timed and placed there, seen on its cart too',
      own: { ttclid: 'B', anonymousId: 'cart', sightings: [seen('cart', 0), seen('tag-visitor', 1)] },
      visitors: [visitorClick('cart', 'B', 0), visitorClick('tag-visitor', 'B', 1), visitorClick('older', 'A', 1.5)],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message', anonymousId: 'tag-visitor', capturedAt: daysBefore(1) } },
    },
    {
      name: 'a linked visitor\'s click made after the order\'s own landing page view wins: it is the later click',
      own: { ttclid: 'B', anonymousId: 'cart', sightings: [seen('tag-visitor', 4)] },
      visitors: [visitorClick('tag-visitor', 'B', 4), visitorClick('phone', 'P', 1)],
      expected: { attributed: true, click: { ttclid: 'P', source: 'visitor', anonymousId: 'phone' } },
    },
    {
      name: 'a click the event carries, first seen 40 days ago and nothing later: outside the window, kept to explain it',
      own: { ttclid: 'K', anonymousId: 'laptop', sightings: [seen('laptop', 40)] },
      visitors: [visitorClick('laptop', 'K', 40)],
      expected: { attributed: false, reason: 'click_outside_attribution_window', click: { ttclid: 'K', source: 'message', capturedAt: daysBefore(40) } },
    },
    {
      name: 'a landing page view seen after the order (out of order) does not move the click past the order',
      own: { ttclid: 'B', sightings: [{ anonymousId: 'late-view', capturedAt: new Date(conversion.getTime() + 60_000) }] },
      visitors: [],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message', anonymousId: 'late-view', capturedAt: conversion } },
    },
    {
      name: 'at the same instant, the event\'s own click wins over a visitor\'s',
      own: { ttclid: 'B', sightings: [] },
      visitors: [{ anonymousId: 'other', ttclid: 'X', capturedAt: conversion, source: 'visitor' }],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message' } },
    },
    {
      name: 'a visitor\'s click beyond the clock skew after the conversion does not count; the event\'s own does',
      own: { ttclid: 'B', sightings: [] },
      visitors: [{ anonymousId: 'later', ttclid: 'L', capturedAt: new Date(conversion.getTime() + CLOCK_SKEW_MS + 1000), source: 'visitor' }],
      expected: { attributed: true, click: { ttclid: 'B', source: 'message' } },
    },
    {
      name: 'without a click of its own, the latest visitor click wins, as before',
      visitors: [visitorClick('phone-old', 'O', 20), visitorClick('desktop', 'D', 2)],
      expected: { attributed: true, click: { ttclid: 'D', source: 'visitor', anonymousId: 'desktop' } },
    },
    {
      name: 'with a 7-day window, an identity click 8 days old is outside it, as before',
      visitors: [visitorClick('phone', 'P', 8)],
      windowDays: 7,
      expected: { attributed: false, reason: 'click_outside_attribution_window', click: { ttclid: 'P' } },
    },
    { name: 'no click anywhere', visitors: [], expected: { attributed: false, reason: 'no_ttclid' } },
  ];

  it.each(cases)('$name', ({ own, visitors, windowDays = 30, expected }) => {
    const ownClick = own === undefined ? undefined : messageClick(own.ttclid, { time: conversion, anonymousId: own.anonymousId }, own.sightings);
    const decision = chooseClick(knownClicks(ownClick, visitors), conversion, windowDays);
    expect(decision).toMatchObject(expected.click === undefined ? { attributed: expected.attributed, reason: expected.reason } : expected);
    if (expected.click === undefined) expect(decision).not.toHaveProperty('click');
  });

  it("counts a visitor's sighting of the event's own ttclid as that one click, not a second one", () => {
    const own = messageClick('B', { time: conversion, anonymousId: 'cart' }, [seen('cart', 0), seen('tag-visitor', 1)]);
    expect(knownClicks(own, [visitorClick('cart', 'B', 0), visitorClick('phone', 'P', 2)])).toEqual([own, visitorClick('phone', 'P', 2)]);
  });
});

describe('latestCountedClickTime', () => {
  it('is the conversion time plus the clock-skew allowance', () => {
    expect(latestCountedClickTime(conversion)).toEqual(new Date(conversion.getTime() + CLOCK_SKEW_MS));
  });

  it('stops at the last instant PostgreSQL and ISO-8601 strings hold, for a conversion stamped at the end of year 9999', () => {
    const latest = latestCountedClickTime(new Date('9999-12-31T23:59:59Z'));
    expect(latest.toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('decideSend', () => {
  const inWindow = chooseClick([click('a', 3)], conversion, 30);
  const expired = chooseClick([click('a', 31)], conversion, 30);
  const none = chooseClick([], conversion, 30);
  const off = { advertisingId: false, matchWithoutClick: false };
  const on = { advertisingId: false, matchWithoutClick: true };

  it('sends on the click inside the window, with the setting off or on', () => {
    expect(decideSend(inWindow, off)).toEqual({ send: true, by: 'click' });
    expect(decideSend(inWindow, on)).toEqual({ send: true, by: 'click' });
  });

  it('skips a conversion without a click inside the window while the setting is off, with the reason as before', () => {
    expect(decideSend(none, off)).toEqual({ send: false, reason: 'no_ttclid' });
    expect(decideSend(expired, off)).toEqual({ send: false, reason: 'click_outside_attribution_window' });
  });

  it('sends it for TikTok to match on its other keys when the setting is on, whether there was no click or an older one', () => {
    expect(decideSend(none, on)).toEqual({ send: true, by: 'match_keys' });
    expect(decideSend(expired, on)).toEqual({ send: true, by: 'match_keys' });
  });

  it('sends an offline or CRM event on the person, whatever its click and the setting', () => {
    for (const decision of [inWindow, expired, none]) expect(decideSend(decision, { ...off, matchedOnPerson: true })).toEqual({ send: true, by: 'person' });
  });

  it('sends an app event with an advertising ID by device, not as one matched without a click', () => {
    expect(decideSend(none, { advertisingId: true, matchWithoutClick: false })).toEqual({ send: true, by: 'device' });
    expect(decideSend(expired, { advertisingId: true, matchWithoutClick: true })).toEqual({ send: true, by: 'device' });
  });
});

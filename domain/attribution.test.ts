import { chooseClick, CLOCK_SKEW_MS, decideSend, latestCountedClickTime, type Click } from './attribution';

const DAY = 86_400_000;
const conversion = new Date('2026-06-30T12:00:00Z');
const click = (anonymousId: string, daysBefore: number): Click => ({
  anonymousId,
  ttclid: `E.C.P.${anonymousId}`,
  capturedAt: new Date(conversion.getTime() - daysBefore * DAY),
});

describe('chooseClick', () => {
  it('reports no ttclid when the visitor never clicked an ad', () => {
    expect(chooseClick([], conversion, 30)).toEqual({ attributed: false, reason: 'no_ttclid' });
  });

  it('attributes a click inside the window', () => {
    expect(chooseClick([click('a', 29)], conversion, 30)).toMatchObject({ attributed: true, click: { anonymousId: 'a' } });
  });

  it('does not attribute a click outside the window', () => {
    expect(chooseClick([click('a', 31)], conversion, 30)).toMatchObject({ attributed: false, reason: 'click_outside_attribution_window' });
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

  it('sends an app event with an advertising ID by device, not as one matched without a click', () => {
    expect(decideSend(none, { advertisingId: true, matchWithoutClick: false })).toEqual({ send: true, by: 'device' });
    expect(decideSend(expired, { advertisingId: true, matchWithoutClick: true })).toEqual({ send: true, by: 'device' });
  });
});

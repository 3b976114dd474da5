import { chooseMatchKeys, type MatchKeyFacts, type VisitorKeys } from './match-keys';

const DAY = 86_400_000;
const eventTime = new Date('2026-03-20T12:00:00Z');
const daysBefore = (days: number) => new Date(eventTime.getTime() - days * DAY);
const EMAIL = 'a'.repeat(64);
const PHONE = 'b'.repeat(64);

const phone: VisitorKeys = { anonymousId: 'phone-visitor', ttp: 'ttp-phone', ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (iPhone)', pageUrl: 'https://shop.example/ferns', deviceSeenAt: daysBefore(2) };
const laptop: VisitorKeys = { anonymousId: 'laptop-visitor', ip: '198.51.100.4', userAgent: 'Mozilla/5.0 (Macintosh)', pageUrl: 'https://shop.example/cart', deviceSeenAt: daysBefore(1) };

function facts(overrides: Partial<MatchKeyFacts> = {}): MatchKeyFacts {
  return { message: {}, linked: { emails: [], phones: [] }, visitors: [], eventTime, attributionWindowDays: 30, ...overrides };
}

describe('chooseMatchKeys', () => {
  it("gives a backend conversion without device details the converting visitor's latest page view: IP, user agent and page", () => {
    const keys = chooseMatchKeys(facts({ message: { externalIds: ['c'.repeat(64)] }, visitors: [laptop, phone], click: { ttclid: 'E.C.P.x', anonymousId: 'phone-visitor', source: 'visitor' } }));
    expect(keys.user).toEqual({ external_id: 'c'.repeat(64), ttclid: 'E.C.P.x', ip: '198.51.100.4', user_agent: 'Mozilla/5.0 (Macintosh)' });
    expect(keys.pageUrl).toBe('https://shop.example/cart');
    expect(keys.sources).toEqual({
      external_id: { source: 'message' },
      ttclid: { source: 'visitor', anonymousId: 'phone-visitor' },
      ip: { source: 'visitor', anonymousId: 'laptop-visitor' },
      user_agent: { source: 'visitor', anonymousId: 'laptop-visitor' },
      page_url: { source: 'visitor', anonymousId: 'laptop-visitor' },
    });
  });

  it("falls back to the clicking visitor's device when the converting visitor has none inside the attribution window", () => {
    const stale = { ...laptop, deviceSeenAt: daysBefore(31) };
    const keys = chooseMatchKeys(facts({ visitors: [stale, phone] }));
    expect(keys.user).toMatchObject({ ip: '203.0.113.9', user_agent: 'Mozilla/5.0 (iPhone)' });
    expect(keys.sources.ip).toEqual({ source: 'visitor', anonymousId: 'phone-visitor' });
    expect(chooseMatchKeys(facts({ visitors: [stale], attributionWindowDays: 30 })).user).toEqual({});
  });

  it("keeps the message's own IP and user agent as a pair, never mixing in another device's", () => {
    const keys = chooseMatchKeys(facts({ message: { ip: '192.0.2.1', pageUrl: 'https://shop.example/thanks' }, visitors: [laptop] }));
    expect(keys.user).toEqual({ ip: '192.0.2.1' });
    expect(keys.pageUrl).toBeUndefined();
    expect(keys.sources).toEqual({ ip: { source: 'message' }, page_url: { source: 'message' } });
  });

  it('takes email and phone from the message, else from linked identities (at most five each)', () => {
    const own = chooseMatchKeys(facts({ message: { emails: [EMAIL] }, linked: { emails: ['d'.repeat(64)], phones: [PHONE] } }));
    expect(own.user).toEqual({ email: EMAIL, phone: PHONE });
    expect(own.sources).toEqual({ email: { source: 'message' }, phone: { source: 'identity' } });
    const many = Array.from({ length: 7 }, (_, i) => String(i).repeat(64));
    expect(chooseMatchKeys(facts({ linked: { emails: many, phones: [] } })).user.email).toEqual(many.slice(0, 5));
  });

  it('sends every email, phone and external ID the message lists, as arrays', () => {
    const keys = chooseMatchKeys(facts({ message: { emails: [EMAIL, 'd'.repeat(64)], phones: [PHONE], externalIds: ['c'.repeat(64), 'e'.repeat(64)] }, linked: { emails: ['9'.repeat(64)], phones: [] } }));
    expect(keys.user).toEqual({ email: [EMAIL, 'd'.repeat(64)], phone: PHONE, external_id: ['c'.repeat(64), 'e'.repeat(64)] });
    expect(keys.sources).toEqual({ email: { source: 'message' }, phone: { source: 'message' }, external_id: { source: 'message' } });
  });

  it("sends the message's hashed name and address, recorded as the message's", () => {
    const keys = chooseMatchKeys(facts({ message: { person: { first_name: 'e'.repeat(64), zip_code: 'f'.repeat(64) } } }));
    expect(keys.user).toEqual({ first_name: 'e'.repeat(64), zip_code: 'f'.repeat(64) });
    expect(keys.sources).toEqual({ first_name: { source: 'message' }, zip_code: { source: 'message' } });
  });

  it("says whose _ttp was sent: the message's own, or the linked visitor's that had it", () => {
    expect(chooseMatchKeys(facts({ message: { ttp: 'ttp-own' }, ttp: 'ttp-own', visitors: [phone] })).sources.ttp).toEqual({ source: 'message' });
    expect(chooseMatchKeys(facts({ ttp: 'ttp-phone', visitors: [laptop, phone] })).sources.ttp).toEqual({ source: 'visitor', anonymousId: 'phone-visitor' });
  });
});

import { sha256Hex } from './hashing';
import { meaningfulIdentifier } from './identifiers';
import type { TrackedMessage } from './message';
import { observe } from './observation';

const at = new Date('2026-03-01T10:00:00Z');
const base: TrackedMessage = { type: 'track', event: 'purchase', messageId: 'm1', timestamp: at.toISOString() };

describe('observe', () => {
  it('links the anonymous visitor to the user when both are given (spec §6.4)', () => {
    const { links } = observe({ ...base, userId: 'u1', anonymousId: 'a1' }, at, 'US');
    expect(links).toEqual([{ from: { kind: 'user_id', value: 'u1' }, to: { kind: 'anonymous_id', value: 'a1' } }]);
  });

  it('links hashed email and phone from traits, context.traits or properties, never plaintext', () => {
    const viaTraits = observe({ ...base, type: 'identify', userId: 'u1', traits: { email: ' Bob@Example.com ' } }, at, 'US');
    const viaContext = observe({ ...base, anonymousId: 'a1', context: { traits: { phone: '(213) 373-4253' } } }, at, 'US');
    const viaProperties = observe({ ...base, anonymousId: 'a2', properties: { email: 'bob@example.com' } }, at, 'US');
    expect(viaTraits.links[0]?.to).toEqual({ kind: 'email_sha256', value: sha256Hex('bob@example.com') });
    expect(viaContext.links[0]?.to).toEqual({ kind: 'phone_sha256', value: sha256Hex('+12133734253') });
    expect(viaProperties.links[0]?.to).toEqual(viaTraits.links[0]?.to);
    expect(JSON.stringify([viaTraits, viaContext, viaProperties])).not.toMatch(/example\.com|373/);
  });

  it('links the first valid email of an array', () => {
    const { links } = observe({ ...base, type: 'identify', userId: 'u1', traits: { email: ['junk', 'bob@example.com', 'ann@example.com'] } }, at, 'US');
    expect(links).toEqual([{ from: { kind: 'user_id', value: 'u1' }, to: { kind: 'email_sha256', value: sha256Hex('bob@example.com') } }]);
  });

  it.each(['null', 'undefined', 'anonymous', '0', '', '  ', 'NULL'])('never links the junk identifier %p', (junk) => {
    const { links, sighting } = observe({ ...base, userId: junk, anonymousId: 'a1' }, at, 'US');
    expect(links).toEqual([]);
    expect(sighting?.anonymousId).toBe('a1');
    expect(meaningfulIdentifier(junk)).toBeUndefined();
  });

  it('captures ttclid from the landing URL and _ttp from properties', () => {
    const { sighting } = observe(
      { ...base, type: 'page', anonymousId: 'a1', context: { page: { url: 'https://shop.example/?ttclid=E.C.P.abc' } }, properties: { _ttp: 'ttp-1' } },
      at,
      'US',
    );
    expect(sighting).toEqual({ anonymousId: 'a1', seenAt: at, ttclid: 'E.C.P.abc', ttp: 'ttp-1', pageUrl: 'https://shop.example/?ttclid=E.C.P.abc' });
  });

  it.each([
    ['https://shop.example/?tt%63lid=E.C.P.abc', 'E.C.P.abc'],
    ['https://shop.example/?utm_source=tiktok&ttclid=E.C.P.abc#top', 'E.C.P.abc'],
    ['https://shop.example/ttclid/?utm_source=tiktok', undefined],
    ['https://shop.example/?utm_source=tiktok', undefined],
  ])('reads the ttclid query parameter of %p, its name percent-encoded or not', (url, ttclid) => {
    expect(observe({ ...base, type: 'page', anonymousId: 'a1', context: { page: { url } } }, at, 'US').sighting?.ttclid).toBe(ttclid);
  });

  it("keeps a page view's IP address, user agent and URL as the visitor's device details, and no other message's", () => {
    const context = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0', page: { url: 'https://shop.example/ferns' } };
    expect(observe({ ...base, type: 'page', anonymousId: 'a1', context }, at, 'US').sighting?.device).toEqual({
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0',
      pageUrl: 'https://shop.example/ferns',
    });
    expect(observe({ ...base, anonymousId: 'a1', context }, at, 'US').sighting).not.toHaveProperty('device');
    expect(observe({ ...base, type: 'page', anonymousId: 'a1', context: { page: context.page } }, at, 'US').sighting).not.toHaveProperty('device');
  });

  it('links an alias previousId to the user', () => {
    const { links } = observe({ ...base, type: 'alias', userId: 'u1', previousId: 'a-old' }, at, 'US');
    expect(links).toContainEqual({ from: { kind: 'user_id', value: 'u1' }, to: { kind: 'anonymous_id', value: 'a-old' } });
  });
});

import { isPiiKey, looksLikePii, scrubUrl } from './pii';
import { buildTikTokEvent } from './tiktok-event';

describe('isPiiKey', () => {
  it.each(['email', 'Email', 'customer_email', 'billingPhone', 'shipping_address', 'mobileNumber', 'zip', 'first_name', 'lastName', 'name', 'contact-tel'])(
    '%p names a contact field',
    (key) => {
      expect(isPiiKey(key)).toBe(true);
    },
  );

  it.each(['order_number', 'sku', 'delivery_date', 'product_name', 'hotel', 'plan', 'coupon', 'telemetry_id'])('%p does not', (key) => {
    expect(isPiiKey(key)).toBe(false);
  });
});

describe('looksLikePii', () => {
  it.each(['jo@example.com', 'contact: Jo.Doe+shop@mail.example.org', '+1 213 373 4253', 'call +44 20 7946 0018 today'])('%p is personal data', (text) => {
    expect(looksLikePii(text)).toBe(true);
  });

  it.each(['2026-11-26', 'SKU-100200300', '1000234567', 'ORD-2026-000123', '(555) 010-99999', '+1 000', 'v2.14.1'])('%p is not, by its shape alone', (text) => {
    expect(looksLikePii(text)).toBe(false);
  });
});

describe('custom properties sent with a custom event', () => {
  const sent = (properties: Record<string, unknown>) =>
    buildTikTokEvent(
      { type: 'track', event: 'Delivery Booked', messageId: 'm-1', timestamp: '2026-03-20T12:00:00Z', properties },
      { tiktokEvent: 'Delivery Booked', custom: true, eventId: 'm-1', eventTime: new Date('2026-03-20T12:00:00Z'), value: null, currency: null },
      {},
    ).properties;

  it('keeps dates, SKUs and order numbers with 8 or more digits', () => {
    expect(sent({ delivery_date: '2026-11-26', sku: 'SKU-100200300', order_number: 1000234567, slots: ['2026-11-26', '2026-11-27'] })).toEqual({
      delivery_date: '2026-11-26',
      sku: 'SKU-100200300',
      order_number: 1000234567,
      slots: ['2026-11-26', '2026-11-27'],
    });
  });

  it('drops contact-named keys whatever they hold, and values that are emails or international phone numbers', () => {
    expect(sent({ customer_email: 'x', billingPhone: 12133734253, note: 'jo@example.com', contact: '+1 213 373 4253', recipients: ['a', 'b@example.com'], plan: 'pro' })).toEqual({ plan: 'pro' });
  });
});

describe('scrubUrl', () => {
  it('removes contact-named query parameters and emails, and keeps the click ID and other parameters', () => {
    expect(scrubUrl('https://shop.example/thanks?ttclid=E.C.P.x&customerEmail=a&ref=jo%40example.com&order=20261126')).toBe('https://shop.example/thanks?ttclid=E.C.P.x&order=20261126');
  });
});

import { buildConversionRequest } from '../domain/conversion-request';
import type { TrackedMessage } from '../domain/message';
import { conversionsFor, type MappingRule } from '../domain/rule-conversions';
import { checkMessage } from '../sdk/src/rules/index.js';
import { createPixel, type PixelRule, type Ttq } from './src/pixel';

// The tag and the server side by side: for the same message, TikTok's pixel gets what the Events API gets, so that
// TikTok counts the conversion once (same pixel code, event and event_id).

const CODE = 'C9ABCDEFGHIJKLMNOPQR';
const RULES: PixelRule[] = [
  { sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', alsoSendAs: ['PlaceAnOrder', 'Purchase'], valueSource: 'order_total', fixedValue: null, currency: 'EUR' },
  { sourceEvent: 'Product Added', tiktokEvent: 'AddToCart', alsoSendAs: [], valueSource: 'order_total', fixedValue: null, currency: 'USD' },
  { sourceEvent: 'signup', tiktokEvent: 'CompleteRegistration', alsoSendAs: [], valueSource: 'fixed', fixedValue: 12.5, currency: 'gbp' },
  { sourceEvent: 'Products Searched', tiktokEvent: 'Search', alsoSendAs: [], valueSource: 'none', fixedValue: null, currency: null },
];

const CALLS: [string, Record<string, unknown>][] = [
  ['Order Completed', { order_id: 9074, total: '61.5', currency: 'sek', products: [{ sku: 'F-1', name: 'Fern', price: '18.50', quantity: 3 }, { product_id: 'P-2', price: 6 }] }],
  ['Order Completed', { order_id: 'null', event_id: 'null', revenue: 20, contents: { content_id: 'G-7', quantity: 1 }, content_type: 'product_group' }],
  ['Product Added', { product_id: 'F-1', price: 18.99, quantity: 3, content_ids: 'F-1', num_items: '3' }],
  ['Product Added', { eventId: 'px-42', price: 'twelve' }],
  ['signup', { order_id: 'not-a-purchase', method: 'email' }],
  ['Products Searched', { query: '  tall ferns ', search_string: 'ignored' }],
];

/** The tag's messages for the calls above, as its tracker queues them (tracker.ts; pixel.test.ts drives the tracker). */
const MESSAGES = CALLS.map(([event, properties], i) => ({
  type: 'track',
  messageId: `8d3c6a2e-5b1f-4c2a-9e0d-00000000000${i}`,
  timestamp: new Date().toISOString(),
  anonymousId: '0b7e7c1a-3f4d-4e55-8a8e-1c2d3e4f5a6b',
  context: { page: { url: 'https://shop.example/checkout', path: '/checkout', search: '', referrer: '', title: 'Checkout' }, userAgent: 'Mozilla/5.0 Test' },
  event,
  properties,
}));

/** The pixel's track calls for the messages, each as `[event, properties, { event_id }]`. */
function pixelSide(): unknown[][] {
  const tracks: unknown[][] = [];
  const ignore = () => undefined;
  const ttq: Ttq = { load: ignore, page: ignore, identify: ignore, holdConsent: ignore, grantConsent: ignore, revokeConsent: ignore, track: (...args) => void tracks.push(args) };
  const settings = { mode: 'page', code: CODE, libraryUrl: 'https://analytics.tiktok.com/i18n/pixel/events.js', limitedDataUse: false } as const;
  const pixel = createPixel(settings, RULES, { global: { ttq }, addScript: ignore, schedule: ignore, now: Date.now, warn: ignore });
  pixel.consent('granted');
  MESSAGES.forEach((message) => pixel.sent(message));
  return tracks;
}

/** What the server sends to the Events API for the messages the tag queued, once ingest has checked and stored them. */
function serverSide() {
  const stored = MESSAGES.map((sent, i) => {
    const check = checkMessage(JSON.parse(JSON.stringify(sent)));
    if (!check.ok) throw new Error(`ingest refuses the tag's message: ${JSON.stringify(check.issues)}`);
    return { message: check.message as TrackedMessage, occurredAt: new Date(), rowId: String(i + 1), receivedOn: '2026-01-10', fromAppKey: false };
  });
  const rules = new Map<string, MappingRule>(RULES.map((rule) => [rule.sourceEvent, { ...rule, destination: 'auto' }]));
  const { candidates } = conversionsFor('workspace-1', stored, rules);
  return candidates.map((conversion) => {
    const message = stored.find((event) => event.rowId === conversion.eventRowId)?.message as TrackedMessage;
    const request = buildConversionRequest({
      message,
      conversion: { ...conversion, click: null, ttp: null },
      workspace: { testMode: false, testEventCode: null, defaultPhoneRegion: 'US', attributionWindowDays: 30 },
      connection: { pixelCode: CODE, appId: null, offlineEventSetId: null, crmEventSetId: null },
      linked: { emails: [], phones: [] },
      visitors: [],
    });
    if (!request.ready) throw new Error(`the server would not send it: ${request.reason}`);
    const [event] = request.payload.data;
    return [event?.event, event?.properties, { event_id: event?.event_id }];
  });
}

it("gives TikTok's pixel the event, event_id, value, currency and properties the server sends to the Events API", () => {
  const server = serverSide();
  // Every TikTok event the rules map these calls to, the additional events included.
  expect(server.map(([event]) => event)).toEqual(['CompletePayment', 'PlaceAnOrder', 'Purchase', 'CompletePayment', 'PlaceAnOrder', 'Purchase', 'AddToCart', 'AddToCart', 'CompleteRegistration', 'Search']);
  expect(pixelSide()).toEqual(server);
});

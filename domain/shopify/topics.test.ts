import { SHOPIFY_FIXTURE_TOPICS, shopifyFixture, shopifyJson, type ShopifyFixtureTopic } from '../../devstack/shopify-fake';
import { buildConversionRequest } from '../conversion-request';
import { sha256Hex } from '../hashing';
import type { TrackedMessage } from '../message';
import { parseWebhookJson } from '../webhooks/webhook-json';
import type { CartState } from './cart';
import { mapShopifyDelivery, shopifyDeliveryId, type ShopifyDelivery, type ShopifyMapping } from './topics';

/** A fixture as the ingest route reads it: JSON text through the lossless parser. */
function body(topic: ShopifyFixtureTopic, change: (resource: Record<string, unknown>) => void = () => undefined): unknown {
  const resource = shopifyFixture(topic);
  change(resource);
  return (parseWebhookJson(shopifyJson(resource)) as { ok: true; body: unknown }).body;
}

const delivery = (topic: string): ShopifyDelivery => ({ sourceId: 'src_shop', topic, shopDomain: 'fern-shop.myshopify.com' });
/** A delivery's messages; a body refused for its topic fails the test. */
function mapped(resource: unknown, to: ShopifyDelivery, state?: CartState): ShopifyMapping {
  const mapping = mapShopifyDelivery(resource, to, state);
  if ('refused' in mapping) throw new Error(`refused: ${mapping.refused}`);
  return mapping;
}
const map = (topic: ShopifyFixtureTopic, change?: (resource: Record<string, unknown>) => void, state?: CartState) => mapped(body(topic, change), delivery(topic), state);

const AVIATOR = { product_id: '788032119674292922', variant: '642667041472713922', sku: 'SKU2006-001', name: 'Aviator sunglasses', price: 90, quantity: 1 };
const LOUNGER = { product_id: '788032119674292923', variant: '757650484644203962', sku: 'SKU2006-020', name: 'Mid-century lounger', price: 154, quantity: 2 };
const CART = 'Z2NwLXVzLWVhc3QxOjAxSjdXRjdOQjY0NlFFNFdQVEg0MTRFM1E2';
const SOURCE = { id: 'src_shop', type: 'shopify', shop: 'fern-shop.myshopify.com' };

describe('Shopify topics as Segment messages', () => {
  it("orders/create: Order Completed with the order's ID, amounts and line items, the customer, their browser and keys", () => {
    expect(map('orders/create').messages).toEqual([
      {
        type: 'track',
        event: 'Order Completed',
        messageId: 'src_shop:orders/create:820982911946154508',
        timestamp: '2021-12-31T19:00:00-05:00',
        userId: '115310627314723954',
        anonymousId: `shopify-cart-${CART}`,
        properties: {
          order_id: '820982911946154508',
          checkout_id: 'bd5a8aa1ecd019dd3520ff791ee3a24c',
          order_name: '#9999',
          total: 403,
          subtotal: 398,
          tax: 0,
          discount: 0,
          shipping: 5,
          currency: 'USD',
          products: [AVIATOR, LOUNGER],
        },
        context: {
          ip: '203.0.113.24',
          userAgent: expect.stringMatching(/^Mozilla\/5\.0 \(iPhone/),
          locale: 'en-US,en;q=0.9',
          traits: { email: 'jon@example.com', phone: '555-555-SHIP', firstName: 'Steve', lastName: 'Shipper', address: { city: 'Shippington', state: 'KY', postalCode: '40003', country: 'US' } },
          source: { ...SOURCE, topic: 'orders/create' },
        },
      },
    ]);
  });

  it('takes the visitor and click from the cart attributes the tag wrote, else the click of the landing page, and says which', () => {
    const [tagged] = map('orders/create', (order) => {
      order.note_attributes = [{ name: 'sbx_aid', value: 'visitor-1' }, { name: 'ttclid', value: 'E.C.P.cart' }];
      order.landing_site = '/products/aviator-sunglasses?ttclid=E.C.P.landing';
    }).messages;
    expect(tagged).toMatchObject({ userId: '115310627314723954', anonymousId: 'visitor-1', context: { ttclid: 'E.C.P.cart', source: { click: 'cart' } } });
    const [landed] = map('orders/create', (order) => {
      order.landing_site = '/products/aviator-sunglasses?utm_source=tiktok&ttclid=E.C.P.landing';
    }).messages;
    expect(landed).toMatchObject({ anonymousId: `shopify-cart-${CART}`, context: { ttclid: 'E.C.P.landing', source: { click: 'landing_page' } } });
    expect(map('orders/create').messages[0]?.context).not.toHaveProperty('ttclid');
    expect(map('orders/create').messages[0]?.context.source).not.toHaveProperty('click');
  });

  it('gives an order with neither customer nor cart a visitor of its own (never a shared one)', () => {
    const [order] = map('orders/create', (resource) => {
      delete resource.customer;
      resource.cart_token = null;
    }).messages;
    expect(order).toMatchObject({ anonymousId: 'shopify-order-820982911946154508' });
    expect(order).not.toHaveProperty('userId');
  });

  it('becomes the TikTok event the Segment name is sent as: value, contents and the buyer\'s keys (names and zip hashed; city, state and country normalised, not hashed)', () => {
    const [message] = map('orders/create', (order) => {
      order.phone = '+1 502-555-0147';
    }).messages;
    const built = buildConversionRequest({
      message: { ...(message as TrackedMessage), messageId: 'm-1' },
      conversion: { tiktokEvent: 'CompletePayment', eventId: '820982911946154508', eventTime: new Date('2022-01-01T00:00:00Z'), value: 403, currency: 'USD', eventSource: 'web', click: { ttclid: 'E.C.P.x', anonymousId: 'visitor-1', source: 'visitor' }, ttp: null },
      workspace: { testMode: false, testEventCode: null, defaultPhoneRegion: 'US', attributionWindowDays: 30 },
      connection: { pixelCode: 'CPIXEL', appId: null, offlineEventSetId: null, crmEventSetId: null },
      linked: { emails: [], phones: [] },
      visitors: [],
    });
    expect(built.ready && built.payload.data[0]).toMatchObject({
      event: 'CompletePayment',
      event_id: '820982911946154508',
      user: {
        email: sha256Hex('jon@example.com'),
        phone: sha256Hex('+15025550147'),
        external_id: sha256Hex('115310627314723954'),
        first_name: sha256Hex('steve'),
        last_name: sha256Hex('shipper'),
        city: 'shippington',
        state: 'ky',
        zip_code: sha256Hex('40003'),
        country: 'us',
        ip: '203.0.113.24',
        ttclid: 'E.C.P.x',
      },
      properties: {
        value: 403,
        currency: 'USD',
        order_id: '820982911946154508',
        content_type: 'product',
        contents: [
          { content_id: '788032119674292922', content_name: 'Aviator sunglasses', price: 90, quantity: 1 },
          { content_id: '788032119674292923', content_name: 'Mid-century lounger', price: 154, quantity: 2 },
        ],
      },
    });
  });

  it('orders/paid is the same Order Completed (one conversion per order: the order ID is its event_id)', () => {
    expect(map('orders/paid').messages[0]).toMatchObject({ event: 'Order Completed', properties: { order_id: '820982911946154508', total: 403 } });
  });

  it('marks a point-of-sale order (source_name "pos", or a location) as one that happened offline; an online order and a checkout not', () => {
    const channel = (message: unknown) => (message as TrackedMessage).context?.channel;
    expect(channel(map('orders/create', (order) => Object.assign(order, { source_name: 'pos' })).messages[0])).toBe('offline');
    expect(channel(map('orders/paid', (order) => Object.assign(order, { location_id: 48752903 })).messages[0])).toBe('offline');
    expect(channel(map('orders/create', (order) => Object.assign(order, { location_id: null })).messages[0])).toBeUndefined();
    expect(channel(map('checkouts/create', (checkout) => Object.assign(checkout, { source_name: 'pos' })).messages[0])).toBeUndefined();
  });

  it('checkouts/create: Checkout Started with the checkout token, amounts, items and buyer', () => {
    expect(map('checkouts/create').messages[0]).toMatchObject({
      event: 'Checkout Started',
      userId: '115310627314723954',
      anonymousId: `shopify-cart-${CART}`,
      properties: { checkout_id: 'bd5a8aa1ecd019dd3520ff791ee3a24c', total: 398, currency: 'USD', products: [AVIATOR, { ...LOUNGER }] },
      context: { traits: { email: 'jon@example.com' } },
    });
    expect(map('checkouts/create').messages[0]?.properties).not.toHaveProperty('order_id');
  });

  it('refunds/create: Order Refunded for the order, worth what the refund transaction returned', () => {
    expect(map('refunds/create').messages).toEqual([
      expect.objectContaining({
        event: 'Order Refunded',
        anonymousId: 'shopify-order-820982911946154508',
        timestamp: '2022-01-02T10:00:00-05:00',
        properties: { order_id: '820982911946154508', refund_id: '890088186047892319', total: 90, currency: 'USD', products: [{ ...AVIATOR, variant: '642667041472713922' }] },
      }),
    ]);
  });

  it.each(['customers/create', 'customers/update'] as const)('%s: an identify of the customer with their keys', (topic) => {
    expect(map(topic).messages[0]).toMatchObject({
      type: 'identify',
      userId: '706405506930370084',
      traits: { email: 'bob@biller.com', firstName: 'Bob', lastName: 'Biller', address: { city: 'Ottawa', state: 'ON', postalCode: 'K2P 2L8', country: 'CA' } },
    });
  });

  it('a topic without a Segment name is kept as Shopify <topic>, not refused', () => {
    expect(mapped(body('orders/create'), delivery('orders/cancelled')).messages[0]).toMatchObject({
      event: 'Shopify orders/cancelled',
      properties: { shopify_id: '820982911946154508', order_id: '820982911946154508' },
    });
  });
});

describe('carts/update', () => {
  const CART_UPDATE = delivery('carts/update');
  const idAt = (updatedAt: string) => `src_shop:carts/update:${CART}@${updatedAt}`;
  const cartWith = (lines: { variant: number; quantity: number }[], updatedAt: string) =>
    body('carts/update', (cart) => {
      const [line] = cart.line_items as Record<string, unknown>[];
      cart.line_items = lines.map(({ variant, quantity }) => ({ ...line, key: `${variant}:k`, variant_id: variant, quantity }));
      cart.updated_at = updatedAt;
    });

  it('a new cart: Product Added for each line, with the quantity added and the visitor of the tag', () => {
    const cart = body('carts/update', (resource) => {
      resource.note_attributes = [{ name: 'sbx_aid', value: 'visitor-1' }];
    });
    const { messages, cart: remembered } = mapped(cart, CART_UPDATE);
    expect(messages).toEqual([
      expect.objectContaining({
        event: 'Product Added',
        messageId: `${idAt('2021-12-31T23:59:00.000Z')}:1`,
        anonymousId: 'visitor-1',
        properties: { cart_id: CART, ...AVIATOR, brand: 'Acme', products: [{ ...AVIATOR, brand: 'Acme' }] },
      }),
    ]);
    expect(remembered).toEqual({
      token: CART,
      state: { deliveryId: idAt('2021-12-31T23:59:00.000Z'), updatedAt: '2021-12-31T23:59:00.000Z', quantities: { '642667041472713922:f5b0c4b0a4c5': 1 }, previousQuantities: {} },
    });
  });

  it('against the last delivery: only what grew is added; nothing grew is a Cart Viewed; the same body again maps the same; an older delivery changes nothing', () => {
    const first = mapped(cartWith([{ variant: 1, quantity: 1 }], '2026-01-01T10:00:00Z'), CART_UPDATE);
    const state = first.cart?.state as CartState;
    const second = mapped(cartWith([{ variant: 1, quantity: 3 }, { variant: 2, quantity: 1 }], '2026-01-01T10:05:00Z'), CART_UPDATE, state);
    expect(second.messages.map((m) => [m.event, m.messageId, m.properties?.variant, m.properties?.quantity])).toEqual([
      ['Product Added', `${idAt('2026-01-01T10:05:00Z')}:1`, '1', 2],
      ['Product Added', `${idAt('2026-01-01T10:05:00Z')}:2`, '2', 1],
    ]);
    const afterSecond = second.cart?.state as CartState;
    // Shopify retries the second (or someone posts it again) after its state was stored: compared with what it was
    // compared with, so the same messages, which the store already holds.
    expect(mapped(cartWith([{ variant: 1, quantity: 3 }, { variant: 2, quantity: 1 }], '2026-01-01T10:05:00Z'), CART_UPDATE, afterSecond).messages).toEqual(second.messages);
    const removed = mapped(cartWith([{ variant: 1, quantity: 3 }], '2026-01-01T10:06:00Z'), CART_UPDATE, afterSecond);
    expect(removed.messages.map((m) => [m.event, m.messageId, (m.properties?.products as unknown[]).length])).toEqual([['Cart Viewed', idAt('2026-01-01T10:06:00Z'), 1]]);
    const late = mapped(cartWith([{ variant: 1, quantity: 9 }], '2026-01-01T09:00:00Z'), CART_UPDATE, afterSecond);
    expect(late).toEqual({ messages: [expect.objectContaining({ event: 'Cart Viewed' })] });
  });

  it('stores nothing for a cart with no line item (the tag writing its attributes into a new cart)', () => {
    expect(mapped(cartWith([], '2026-01-01T10:00:00Z'), CART_UPDATE)).toEqual({ messages: [] });
  });
});

describe("a delivery's message ID: its source, topic and resource, whatever X-Shopify-Webhook-Id says", () => {
  const order = { id: '820982911946154508', updated_at: '2022-01-01T10:00:00-05:00' };

  it('is the resource ID for a topic that happens once to a resource, and adds its updated_at for one that recurs', () => {
    expect(shopifyDeliveryId(delivery('orders/create'), order)).toBe('src_shop:orders/create:820982911946154508');
    expect(shopifyDeliveryId(delivery('orders/paid'), order)).toBe('src_shop:orders/paid:820982911946154508');
    expect(shopifyDeliveryId(delivery('orders/updated'), order)).toBe('src_shop:orders/updated:820982911946154508@2022-01-01T10:00:00-05:00');
    expect(shopifyDeliveryId({ ...delivery('orders/create'), sourceId: 'src_other' }, order)).toBe('src_other:orders/create:820982911946154508');
  });

  it('is a digest of the body for a resource without an ID, and of the whole ID when it would be too long for a message ID', () => {
    const level = { inventory_item_id: '271878346596884015', location_id: 24826418, available: 2 };
    expect(shopifyDeliveryId(delivery('inventory_levels/connect'), level)).toMatch(/^src_shop:inventory_levels\/connect:sha256:[0-9a-f]{32}$/);
    expect(shopifyDeliveryId(delivery('inventory_levels/connect'), { ...level, available: 3 })).not.toBe(shopifyDeliveryId(delivery('inventory_levels/connect'), level));
    expect(shopifyDeliveryId(delivery('orders/create'), { id: '7'.repeat(300) })).toMatch(/^src_shop:sha256:[0-9a-f]{32}$/);
  });

  it('is the same for every message a body becomes, so that a body posted again is stored once', () => {
    expect(map('orders/create').messages[0]?.messageId).toBe(shopifyDeliveryId(delivery('orders/create'), body('orders/create') as Record<string, unknown>));
    expect(map('customers/update').messages[0]?.messageId).toBe('src_shop:customers/update:706405506930370084@2022-01-03T09:00:00-05:00');
  });
});

describe('a body that is not the resource of its topic', () => {
  it.each(SHOPIFY_FIXTURE_TOPICS)('%s: its own body fits', (topic) => {
    expect(mapShopifyDelivery(body(topic), delivery(topic))).not.toHaveProperty('refused');
  });

  it.each([
    ['orders/create', 'checkouts/create', 'X-Shopify-Topic checkouts/create carries a checkout, and this body is an order'],
    ['orders/create', 'refunds/create', 'X-Shopify-Topic refunds/create carries a refund, and this body is an order'],
    ['orders/create', 'carts/update', 'X-Shopify-Topic carts/update carries a cart, and this body is an order'],
    ['orders/create', 'customers/create', 'X-Shopify-Topic customers/create carries a customer, and this body is an order'],
    ['checkouts/create', 'orders/paid', 'X-Shopify-Topic orders/paid carries an order, and this body is a checkout'],
    ['carts/update', 'checkouts/create', 'X-Shopify-Topic checkouts/create carries a checkout, and this body is a cart'],
    ['refunds/create', 'orders/create', 'X-Shopify-Topic orders/create carries an order, and this body is a refund'],
    ['customers/update', 'orders/create', 'X-Shopify-Topic orders/create carries an order, and this body is a customer'],
  ] as const)('%s delivered as %s is refused, saying what it is', (from, to, said) => {
    expect(mapShopifyDelivery(body(from), delivery(to))).toEqual({ refused: `${said}: a signed body posted again under another topic` });
  });

  it('names a body that is none of them', () => {
    expect(mapShopifyDelivery({ hello: 'world' }, delivery('orders/create'))).toEqual({
      refused: 'X-Shopify-Topic orders/create carries an order, and this body is none of the resources Shopify sends: a signed body posted again under another topic',
    });
  });
});

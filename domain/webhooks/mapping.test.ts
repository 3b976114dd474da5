import { parsePath, readPath } from './json-path';
import { mappingFieldProblem, mapWebhookBody, type WebhookMapping } from './mapping';
import { parseWebhookJson } from './webhook-json';

/** A Stripe checkout.session.completed event, trimmed to what a mapping reads (Stripe's documented Event and Checkout Session fields). */
const stripeEvent = `{"id":"evt_1PmS7a2eZvKYlo2C","type":"checkout.session.completed","created":1764331200,
  "data":{"object":{"id":"cs_test_a1","amount_total":5990,"currency":"eur","client_reference_id":"user-42",
  "customer_details":{"email":"Ada@Example.com","phone":"+33612345678"},
  "metadata":{"order_id":"A-1001"},"line_items":[{"product_id":"p-1","name":"Fern","price":29.95,"quantity":2}]}}}`;

const mapping: WebhookMapping = {
  event: '"Order Completed"',
  messageId: 'id',
  userId: 'data.object.client_reference_id',
  email: 'data.object.customer_details.email',
  phone: 'data.object.customer_details.phone',
  value: 'data.object.amount_total',
  valueInCents: true,
  currency: 'data.object.currency',
  orderId: 'data.object.metadata.order_id',
  products: 'data.object.line_items',
  timestamp: 'created',
};

const body = () => (parseWebhookJson(stripeEvent) as { ok: true; body: unknown }).body;

describe('paths into a body', () => {
  it.each([
    ['data.object.id', ['data', 'object', 'id']],
    ['line_items[0].price', ['line_items', 0, 'price']],
    ['[1]', [1]],
    ['  a.b  ', ['a', 'b']],
  ])('reads %s as its steps', (path, steps) => {
    expect(parsePath(path)).toEqual({ steps });
  });

  it.each([
    ['', 'must not be empty'],
    ['a..b', 'is not a path like data.object.email or items[0].price (stopped at character 3)'],
    ['a[x]', 'is not a path like data.object.email or items[0].price (stopped at character 2)'],
  ])('refuses %j: %s', (path, problem) => {
    expect(parsePath(path)).toEqual({ problem });
  });

  it('finds nothing where the body has nothing, and never reads inherited properties', () => {
    const value = body();
    expect(readPath(value, ['data', 'object', 'line_items', 0, 'name'])).toBe('Fern');
    expect(readPath(value, ['data', 'missing', 'id'])).toBeUndefined();
    expect(readPath(value, ['data', 'constructor'])).toBeUndefined();
    expect(readPath(value, ['data', 0])).toBeUndefined();
  });
});

describe('a mapping', () => {
  it('turns a Stripe checkout into Order Completed: its ID, user, keys, value in units, currency, order, items and time', () => {
    expect(mapWebhookBody(body(), mapping, { id: 'src_1' }, stripeEvent)).toEqual({
      ok: true,
      message: {
        type: 'track',
        event: 'Order Completed',
        messageId: 'evt_1PmS7a2eZvKYlo2C',
        timestamp: '2025-11-28T12:00:00.000Z',
        userId: 'user-42',
        properties: { order_id: 'A-1001', total: 59.9, currency: 'eur', products: [{ product_id: 'p-1', name: 'Fern', price: 29.95, quantity: 2 }] },
        context: { traits: { email: 'Ada@Example.com', phone: '+33612345678' }, source: { id: 'src_1', type: 'webhook' } },
      },
      unmatched: [],
    });
  });

  it('names each path that finds nothing in the body, whose field it leaves out (a typo such as customer_details.mail)', () => {
    const mapped = mapWebhookBody(body(), { ...mapping, email: 'data.object.customer_details.mail', anonymousId: 'data.object.metadata.sbx_aid' }, { id: 'src_1' }, stripeEvent);
    expect(mapped.ok && mapped.unmatched).toEqual([
      { field: 'anonymousId', path: 'data.object.metadata.sbx_aid' },
      { field: 'email', path: 'data.object.customer_details.mail' },
    ]);
    expect(mapped.ok && mapped.message.context).toEqual({ traits: { phone: '+33612345678' }, source: { id: 'src_1', type: 'webhook' } });
  });

  it('gives a message without user a visitor of its own, never one shared by other messages', () => {
    const { userId: _userId, messageId: _messageId, ...anonymous } = mapping;
    const first = mapWebhookBody(body(), anonymous, { id: 'src_1' }, stripeEvent);
    const other = mapWebhookBody(body(), anonymous, { id: 'src_1' }, stripeEvent.replace('cs_test_a1', 'cs_test_a2'));
    expect(first.ok && first.message.anonymousId).toMatch(/^webhook-src_1-[0-9a-f]{32}$/);
    expect(first.ok && other.ok && first.message.anonymousId !== other.message.anonymousId).toBe(true);
  });

  it('says what stops a body: no event name where the mapping looks, a time that is no time', () => {
    expect(mapWebhookBody(body(), { ...mapping, event: 'kind' }, { id: 'src_1' }, stripeEvent)).toEqual({ ok: false, problems: ['mapping.event: the body has no event name at kind'] });
    expect(mapWebhookBody(body(), { ...mapping, timestamp: 'data.object.currency' }, { id: 'src_1' }, stripeEvent)).toEqual({ ok: true, message: expect.objectContaining({ timestamp: 'eur' }), unmatched: [] });
    expect(mapWebhookBody(body(), { ...mapping, timestamp: 'data.object.customer_details' }, { id: 'src_1' }, stripeEvent)).toEqual({
      ok: false,
      problems: ['mapping.timestamp: data.object.customer_details holds {"email":"Ada@Example.com","phone":"+33612345678"}, not a time (ISO-8601 text, or Unix seconds)'],
    });
  });

  it('takes fixed texts only for the event name and currency', () => {
    expect(mappingFieldProblem('event', '"Order Completed"')).toBeUndefined();
    expect(mappingFieldProblem('currency', '"EUR"')).toBeUndefined();
    expect(mappingFieldProblem('email', '"ada@example.com"')).toBe('must be a path into the body, e.g. data.object.id: only the event name and currency may be fixed texts');
    expect(mappingFieldProblem('event', 'a..b')).toBe('is not a path like data.object.email or items[0].price (stopped at character 3) (or, a fixed name in double quotes, e.g. "Order Completed")');
  });
});

it('reads 18-digit IDs without rounding them, and says where a body stops being JSON', () => {
  expect(parseWebhookJson('{"id":820982911946154508,"total":"1.10"}')).toEqual({ ok: true, body: { id: '820982911946154508', total: '1.10' } });
  expect(parseWebhookJson('{"id": 1,}')).toEqual({ ok: false, problem: expect.stringMatching(/^body is not valid JSON: .*\(line 1, column \d+\)$/) });
});

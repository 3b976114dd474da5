import { parseWebhookJson } from '../webhooks/webhook-json';
import { isPrivacyTopic, readPrivacyRequest } from './privacy-requests';

/** A body as the ingest route reads it: JSON text through the lossless parser (an 18-digit ID keeps its digits). */
const read = (text: string) => (parseWebhookJson(text) as { ok: true; body: unknown }).body;

describe("Shopify's privacy requests", () => {
  it('reads a customer erasure: the customer by ID (every digit), email and phone, and the orders named', () => {
    const body = read('{"shop_id":954889,"shop_domain":"fern-shop.myshopify.com","customer":{"id":820982911946154508,"email":"jo@example.com","phone":"555-625-1199"},"orders_to_redact":[299938,820982911946154509]}');
    expect(readPrivacyRequest('customers/redact', body)).toEqual({
      topic: 'customers/redact',
      shopDomain: 'fern-shop.myshopify.com',
      customer: { userId: '820982911946154508', email: 'jo@example.com', phone: '555-625-1199' },
      orders: ['299938', '820982911946154509'],
    });
  });

  it('reads a data request with its ID, and a customer named by email only', () => {
    const body = read('{"shop_domain":"fern-shop.myshopify.com","orders_requested":[299938],"customer":{"id":null,"email":"jo@example.com","phone":""},"data_request":{"id":9999}}');
    expect(readPrivacyRequest('customers/data_request', body)).toEqual({
      topic: 'customers/data_request',
      shopDomain: 'fern-shop.myshopify.com',
      customer: { email: 'jo@example.com' },
      orders: ['299938'],
      dataRequestId: '9999',
    });
  });

  it('reads a shop removal, and refuses a customer request that names nobody', () => {
    expect(readPrivacyRequest('shop/redact', read('{"shop_id":954889,"shop_domain":"fern-shop.myshopify.com"}'))).toEqual({ topic: 'shop/redact', shopDomain: 'fern-shop.myshopify.com' });
    expect(readPrivacyRequest('customers/redact', read('{"shop_id":954889,"customer":{"id":null}}'))).toEqual({ refused: 'customers/redact names no customer: its customer has no id, email or phone' });
  });

  it('knows the three topics and no other', () => {
    expect(['customers/data_request', 'customers/redact', 'shop/redact', 'customers/update', 'app/uninstalled'].map(isPrivacyTopic)).toEqual([true, true, true, false, false]);
  });
});

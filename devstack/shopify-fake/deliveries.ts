import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'lossless-json';

const hmac = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest();

/** How senders sign webhooks: Shopify (base64), most platforms (hex), Stripe (`t=…,v1=…` over `<t>.<body>`). */
export const sign = {
  shopify: (body: string, secret: string) => hmac(body, secret).toString('base64'),
  hex: (body: string, secret: string) => hmac(body, secret).toString('hex'),
  stripe: (body: string, secret: string, unixSeconds: number) => `t=${unixSeconds},v1=${hmac(`${unixSeconds}.${body}`, secret).toString('hex')}`,
};

/** The topics with a fixture in `fixtures/` (see README.md there for where each body comes from). */
export const SHOPIFY_FIXTURE_TOPICS = ['orders/create', 'orders/paid', 'checkouts/create', 'carts/update', 'refunds/create', 'customers/create', 'customers/update'] as const;
export type ShopifyFixtureTopic = (typeof SHOPIFY_FIXTURE_TOPICS)[number];

type Json = Record<string, unknown>;

/** Beside this file in the sources; a compiled copy (`npm start` runs dist/) reads them from the sources it runs in. */
const FIXTURES = [path.join(__dirname, 'fixtures'), path.resolve('devstack', 'shopify-fake', 'fixtures')].find((dir) => existsSync(dir)) ?? path.join(__dirname, 'fixtures');

/** A fixture's body as an object whose large integers stay exact (lossless-json), to change before it is sent. */
export function shopifyFixture(topic: ShopifyFixtureTopic): Json {
  const file = path.join(FIXTURES, `${topic.replace('/', '-')}.json`);
  return parse(readFileSync(file, 'utf8')) as Json;
}

/** JSON text as Shopify writes it: every digit of a large ID kept. */
export const shopifyJson = (body: unknown): string => stringify(body) as string;

export interface ShopifyDeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * One delivery as Shopify makes it (reference/shopify.md "Delivery"): the JSON body, `X-Shopify-Hmac-Sha256` (base64
 * HMAC-SHA256 of the raw body with the shop's key), the topic, shop domain, API version, webhook and event IDs.
 */
export function shopifyDelivery(topic: string, body: unknown, secret: string, options: { webhookId?: string; shopDomain?: string } = {}): ShopifyDeliveryRequest {
  const text = typeof body === 'string' ? body : shopifyJson(body);
  return {
    body: text,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': sign.shopify(text, secret),
      'x-shopify-shop-domain': options.shopDomain ?? 'fern-shop.myshopify.com',
      'x-shopify-api-version': '2025-07',
      'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
      'x-shopify-event-id': randomUUID(),
      'x-shopify-triggered-at': new Date().toISOString(),
    },
  };
}

/** Posts a delivery as Shopify does; answers the status and the parsed answer. */
export async function postShopifyDelivery(url: string, delivery: ShopifyDeliveryRequest): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
  return { status: response.status, body: (await response.json()) as Json };
}

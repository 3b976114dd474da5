import type { ErasureSubject } from '../personal-data';
import { record, text } from '../webhooks/webhook-json';

/** Shopify's mandatory compliance topics (docs/reference/shopify-app.md "Privacy webhooks"): never stored as events. */
export const PRIVACY_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type PrivacyTopic = (typeof PRIVACY_TOPICS)[number];

export const isPrivacyTopic = (topic: string): topic is PrivacyTopic => (PRIVACY_TOPICS as readonly string[]).includes(topic);

/** What a compliance request asks, read from its signed body. */
export type PrivacyRequest =
  | { topic: 'customers/data_request'; shopDomain?: string; customer: ErasureSubject; orders: string[]; dataRequestId?: string }
  | { topic: 'customers/redact'; shopDomain?: string; customer: ErasureSubject; orders: string[] }
  | { topic: 'shop/redact'; shopDomain?: string };

const orderIds = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap((id) => text(id) ?? []) : []);

/**
 * A compliance request's body (`shop_domain`; for a customer, `customer.{id,email,phone}` and the orders Shopify names:
 * `orders_requested` for a data request, `orders_to_redact` for an erasure), or why it is not one: a customer request
 * must name the customer by at least one of the three.
 */
export function readPrivacyRequest(topic: PrivacyTopic, body: unknown): PrivacyRequest | { refused: string } {
  const resource = record(body) ?? {};
  const shopDomain = text(resource.shop_domain);
  const shop = shopDomain === undefined ? {} : { shopDomain };
  if (topic === 'shop/redact') return { topic, ...shop };
  const customer = record(resource.customer) ?? {};
  const subject: ErasureSubject = Object.fromEntries(
    ([['userId', customer.id], ['email', customer.email], ['phone', customer.phone]] as const).flatMap(([field, value]) => (text(value) === undefined ? [] : [[field, text(value)]])),
  );
  if (Object.keys(subject).length === 0) return { refused: `${topic} names no customer: its customer has no id, email or phone` };
  if (topic === 'customers/redact') return { topic, ...shop, customer: subject, orders: orderIds(resource.orders_to_redact) };
  const dataRequestId = text(record(resource.data_request)?.id);
  return { topic, ...shop, customer: subject, orders: orderIds(resource.orders_requested), ...(dataRequestId === undefined ? {} : { dataRequestId }) };
}

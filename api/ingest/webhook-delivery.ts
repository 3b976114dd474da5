import type { WebhookSourceWithSecret } from '../../db/repositories/webhook-sources';
import type { ShopifyDelivery } from '../../domain/shopify/topics';
import { checkShopifySignature, checkWebhookSignature } from '../../domain/webhooks/signatures';
import type { WebhookMessage } from '../../domain/webhooks/webhook-message';
import { badRequest, unauthorized } from '../http/http-error';
import { DEFAULT_SIGNATURE_HEADER } from '../http/webhook-sources';
import type { IncomingMessage } from './message-schema';
import { parseSingle } from './parse-messages';

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** Refuses (401, naming why) a delivery not signed with the source's secret, before anything of it is read. */
export function requireSignature(source: WebhookSourceWithSecret, body: Buffer, headers: Headers, nowMs: number): void {
  const check =
    source.type === 'shopify'
      ? checkShopifySignature(body, header(headers, 'x-shopify-hmac-sha256'), source.signingSecret)
      : ((name) => checkWebhookSignature(body, name, header(headers, name), source.signingSecret, nowMs))(source.signatureHeader ?? DEFAULT_SIGNATURE_HEADER);
  if (!check.ok) throw unauthorized(check.reason);
}

/** What Shopify's headers say of a delivery; `X-Shopify-Topic` is required, the rest is read when there. */
export function shopifyDeliveryOf(sourceId: string, headers: Headers): ShopifyDelivery {
  const topic = header(headers, 'x-shopify-topic')?.trim();
  if (topic === undefined || !/^[a-z_]+\/[a-z_]+$/.test(topic)) throw badRequest('X-Shopify-Topic header is missing or not a topic such as orders/create');
  const webhookId = header(headers, 'x-shopify-webhook-id')?.trim() || header(headers, 'x-shopify-event-id')?.trim() || undefined;
  const shopDomain = header(headers, 'x-shopify-shop-domain')?.trim() || undefined;
  return { sourceId, topic, ...(webhookId === undefined ? {} : { webhookId }), ...(shopDomain === undefined ? {} : { shopDomain }) };
}

/** Each message a delivery became, checked by the same rules as `/v1/batch`'s (400 naming the field otherwise). */
export function checkedMessages(messages: readonly WebhookMessage[], receivedAt: Date): IncomingMessage[] {
  return messages.flatMap((message) => parseSingle(message, message.type, receivedAt).messages);
}

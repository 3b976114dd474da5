import type { WebhookSourceWithSecret } from '../../db/repositories/webhook-sources';
import type { ShopifyDelivery } from '../../domain/shopify/topics';
import { checkShopifySignature, checkWebhookSignature } from '../../domain/webhooks/signatures';
import { parseWebhookJson, type WebhookJson } from '../../domain/webhooks/webhook-json';
import type { WebhookMessage } from '../../domain/webhooks/webhook-message';
import { HttpError, badRequest, unauthorized } from '../http/http-error';
import type { UnstoredDeliveryReason } from '../http/ingest-refusal';
import { MAX_WEBHOOK_MESSAGE_BYTES } from '../http/limits';
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

/** A signed body's JSON (large integers kept exact); an empty body is said to be empty. */
export function readWebhookJson(body: Buffer): WebhookJson {
  return body.length === 0 ? { ok: false, problem: 'the body is empty' } : parseWebhookJson(body.toString('utf8'));
}

/** What Shopify's headers say of a delivery; `X-Shopify-Topic` is required, the shop's domain is read when there. */
export function shopifyDeliveryOf(sourceId: string, headers: Headers): ShopifyDelivery {
  const topic = header(headers, 'x-shopify-topic')?.trim();
  if (topic === undefined || !/^[a-z_]+\/[a-z_]+$/.test(topic)) throw badRequest('X-Shopify-Topic header is missing or not a topic such as orders/create');
  const shopDomain = header(headers, 'x-shopify-shop-domain')?.trim() || undefined;
  return { sourceId, topic, ...(shopDomain === undefined ? {} : { shopDomain }) };
}

/**
 * Each message a signed delivery became, checked by the same rules as `/v1/batch`'s (400 naming the field otherwise),
 * but for the size of one message: a platform cannot split its resource, so only the request's body limit bounds it.
 */
export function checkedMessages(messages: readonly WebhookMessage[], receivedAt: Date): IncomingMessage[] {
  return messages.flatMap((message) => parseSingle(message, message.type, receivedAt, MAX_WEBHOOK_MESSAGE_BYTES).messages);
}

/**
 * A signed Shopify delivery Signalbox cannot store, and why: acknowledged with 200 (Shopify retries any other answer,
 * then drops the delivery and counts it against the subscription) and recorded as refused.
 */
export class UnstoredDelivery extends Error {
  constructor(
    readonly reason: UnstoredDeliveryReason,
    message: string,
    readonly issues?: readonly string[],
  ) {
    super(message);
    this.name = 'UnstoredDelivery';
  }

  /** What a signed Shopify delivery's refusal becomes: its own, or any 400 or 413 of the message rules; else undefined (a 404, a 503). */
  static of(error: unknown): UnstoredDelivery | undefined {
    if (error instanceof UnstoredDelivery) return error;
    if (error instanceof HttpError && (error.statusCode === 400 || error.statusCode === 413)) return new UnstoredDelivery('shopify_unstorable', error.message, error.issues);
    return undefined;
  }
}

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebhookDeliveryBody } from '../../contract/ingest';
import { sourceParams } from '../../contract/webhook-sources';
import type { Repositories } from '../../db/repositories';
import type { WebhookSourceWithSecret } from '../../db/repositories/webhook-sources';
import { isPrivacyTopic } from '../../domain/shopify/privacy-requests';
import { mapShopifyDelivery, type ShopifyMapping } from '../../domain/shopify/topics';
import { mapWebhookBody } from '../../domain/webhooks/mapping';
import { record } from '../../domain/webhooks/webhook-json';
import { badRequest, notFound } from '../http/http-error';
import { MAX_BATCH_BYTES } from '../http/limits';
import { parseOrReject } from '../http/validation';
import type { ShopifyPrivacy } from '../services/shopify-privacy';
import { acceptedAnswer, type createAfterCommit } from './after-commit';
import type { BatchRecorder } from './record-batch';
import type { RefusalLog } from './refusal-log';
import { refusalStatus } from './refusal-log';
import { createRateLimiter, type RateLimitSettings } from './rate-limit';
import type { SourceActivity } from './source-activity';
import { answerPrivacyDelivery } from './shopify-privacy-delivery';
import { createStorageBudget } from './storage-deadline';
import { checkedMessages, readWebhookJson, requireSignature, shopifyDeliveryOf, UnstoredDelivery } from './webhook-delivery';

export interface WebhookRoutesOptions {
  repos: Pick<Repositories, 'webhookSources' | 'workspaces'>;
  recordBatch: BatchRecorder;
  afterCommit: ReturnType<typeof createAfterCommit>;
  /** Per workspace, as for `/v1` (a bucket of this face's own), taken by signed deliveries only. */
  rateLimit: RateLimitSettings;
  /** Per source: the requests its signature refuses, in a bucket of their own. */
  refusedRateLimit: RateLimitSettings;
  storageDeadlineMs: number;
  refusals?: RefusalLog;
  activity: SourceActivity;
  /** Shopify's privacy topics (customers/data_request, customers/redact, shop/redact). */
  privacy: ShopifyPrivacy;
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    webhookSource: WebhookSourceWithSecret | null;
  }
}

type StorageBudget = ReturnType<typeof createStorageBudget>;

/**
 * `POST /v1/webhooks/:sourceId`: a platform's signed webhook (a Shopify shop's, or any JSON through the source's
 * mapping), checked against the source's secret on the raw body before anything is parsed, mapped to Segment
 * messages and stored by the same recorder as `/v1/batch` (durable before the 200, deduplicated by messageId, the
 * same message rules but for the size of one message). Only a signed delivery takes from the workspace's allowance;
 * those the signature refuses have a smaller bucket per source. Refusals go to the event debugger and the source's
 * last refusal; a bad signature stores nothing else. A signed Shopify delivery is never refused (Shopify retries, then
 * drops it): one that cannot be stored is answered 200 and recorded as refused, with why. Shopify's privacy topics are
 * done, not stored (shopify-privacy-delivery.ts).
 */
export const webhookRoutes: FastifyPluginAsync<WebhookRoutesOptions> = async (app, options) => {
  const { repos, recordBatch, afterCommit, refusals, activity } = options;
  const now = options.now ?? Date.now;
  const rateLimiter = createRateLimiter(options.rateLimit);
  const refusedLimiter = createRateLimiter(
    options.refusedRateLimit,
    undefined,
    (perSecond, burst) => `this source was sent more than ${perSecond} requests per second that its signature refused (bursts up to ${burst} more)`,
  );
  app.decorateRequest('webhookSource', null);
  // The signature is over the bytes as sent: the body stays raw until it is checked.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onError', async (request, _reply, error) => {
    const source = request.webhookSource;
    const status = refusalStatus(error);
    if (source === null || status === undefined) return;
    refusals?.refused(request, error, source.workspaceId);
    activity.refused(source.id, status, error.message);
  });

  async function mapped(request: FastifyRequest, source: WebhookSourceWithSecret, raw: Buffer, budget: StorageBudget): Promise<ShopifyMapping> {
    const read = readWebhookJson(raw);
    if (source.type === 'webhook') {
      if (!read.ok) throw badRequest(read.problem);
      const result = mapWebhookBody(read.body, source.mapping ?? { event: '' }, { id: source.id }, raw.toString('utf8'));
      if (!result.ok) throw badRequest(`${result.problems[0]}: change the source's mapping or what the sender posts`, result.problems);
      return { messages: [result.message] };
    }
    if (!read.ok) throw new UnstoredDelivery('shopify_unreadable', read.problem);
    if (record(read.body) === undefined) throw new UnstoredDelivery('shopify_unreadable', 'the body is JSON but not an object, which every Shopify resource is');
    const delivery = shopifyDeliveryOf(source.id, request.headers);
    const token = delivery.topic.startsWith('carts/') ? cartToken(read.body) : undefined;
    const cartState = token === undefined ? undefined : await budget.run(() => repos.webhookSources.cartState(source.id, token));
    const mapping = mapShopifyDelivery(read.body, delivery, cartState);
    if ('refused' in mapping) throw new UnstoredDelivery('shopify_not_its_topic', mapping.refused);
    return mapping;
  }

  async function store(request: FastifyRequest, source: WebhookSourceWithSecret, raw: Buffer, budget: StorageBudget): Promise<WebhookDeliveryBody> {
    const receivedAt = new Date(now());
    const { messages, cart } = await mapped(request, source, raw, budget);
    const incoming = checkedMessages(messages, receivedAt);
    if (incoming.length === 0) {
      activity.delivered(source.id);
      return { success: true, stored: 0, note: 'a cart with no line item: nothing to record' };
    }
    const workspace = await budget.run(() => repos.workspaces.find(source.workspaceId));
    if (workspace === undefined) throw notFound(`webhook source ${source.id} does not exist: its workspace was deleted`);
    const result = await budget.run((signal) => {
      const recording = recordBatch(workspace, incoming, { receivedAt }, signal);
      void recording.then((stored) => afterCommit(incoming.length, stored, request.log), () => undefined);
      return recording;
    });
    if (cart !== undefined) await activity.cartSeen(source.id, cart.token, cart.state);
    activity.delivered(source.id);
    return acceptedAnswer(result);
  }

  /** A signed Shopify delivery that cannot be stored: answered 200, so that Shopify neither sends it again nor counts a failure, and recorded as refused. */
  function acknowledged(request: FastifyRequest, source: WebhookSourceWithSecret, unstored: UnstoredDelivery): WebhookDeliveryBody {
    const message = `not stored: ${unstored.message} (acknowledged, so that Shopify does not send it again)`;
    refusals?.acknowledged(request, source.workspaceId, { reason: unstored.reason, message, ...(unstored.issues === undefined ? {} : { issues: unstored.issues }) });
    activity.refused(source.id, 200, message);
    return { success: true, stored: 0, note: message };
  }

  app.post('/v1/webhooks/:sourceId', { bodyLimit: MAX_BATCH_BYTES }, async (request) => {
    const { sourceId } = parseOrReject(sourceParams, request.params, 'path');
    const budget = createStorageBudget(options.storageDeadlineMs);
    const source = await budget.run(() => repos.webhookSources.withSecret(sourceId));
    if (source === undefined) throw notFound(`webhook source ${sourceId} does not exist: it was deleted, or the URL is mistyped`);
    request.webhookSource = source;
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    try {
      requireSignature(source, raw, request.headers, now());
    } catch (refused) {
      refusedLimiter.take(source.id);
      throw refused;
    }
    rateLimiter.take(source.workspaceId);
    try {
      const topic = source.type === 'shopify' ? shopifyDeliveryOf(source.id, request.headers).topic : undefined;
      if (topic !== undefined && isPrivacyTopic(topic)) {
        const answer = await answerPrivacyDelivery({ privacy: options.privacy, workspaces: repos.workspaces }, source, topic, raw, budget);
        activity.delivered(source.id);
        return answer;
      }
      return await store(request, source, raw, budget);
    } catch (error) {
      const unstored = source.type === 'shopify' ? UnstoredDelivery.of(error) : undefined;
      if (unstored === undefined) throw error;
      return acknowledged(request, source, unstored);
    }
  });
};

function cartToken(body: unknown): string | undefined {
  const cart = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const token = cart.token ?? cart.id;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

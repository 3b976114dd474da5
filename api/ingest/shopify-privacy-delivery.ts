import type { WebhookDeliveryBody } from '../../contract/ingest';
import type { Repositories } from '../../db/repositories';
import type { WebhookSource, WebhookSourceWithSecret } from '../../db/repositories/webhook-sources';
import { sha256Hex } from '../../domain/hashing';
import { readPrivacyRequest, type PrivacyRequest, type PrivacyTopic } from '../../domain/shopify/privacy-requests';
import { record } from '../../domain/webhooks/webhook-json';
import { notFound } from '../http/http-error';
import type { ShopifyPrivacy } from '../services/shopify-privacy';
import type { StorageBudget } from './storage-deadline';
import { readWebhookJson, UnstoredDelivery } from './webhook-delivery';

export interface PrivacyDeliveryDeps {
  privacy: ShopifyPrivacy;
  workspaces: Repositories['workspaces'];
}

/** The request a signed privacy delivery makes; UnstoredDelivery when its body is not one. */
export function readPrivacyDelivery(topic: PrivacyTopic, raw: Buffer): PrivacyRequest {
  const read = readWebhookJson(raw);
  if (!read.ok) throw new UnstoredDelivery('shopify_unreadable', read.problem);
  if (record(read.body) === undefined) throw new UnstoredDelivery('shopify_unreadable', `the body is JSON but not an object, which every ${topic} request is`);
  const request = readPrivacyRequest(topic, read.body);
  if ('refused' in request) throw new UnstoredDelivery('shopify_unreadable', request.refused);
  return request;
}

/**
 * Does a privacy request for one source (or finds it done before, by the body's hash) within the request's storage
 * deadline; answers what was done, in a sentence. For a source's own URL and the app's compliance URL alike.
 */
export async function doPrivacyRequest(deps: PrivacyDeliveryDeps, source: WebhookSource, request: PrivacyRequest, raw: Buffer, budget: StorageBudget): Promise<string> {
  const workspace = await budget.run(() => deps.workspaces.find(source.workspaceId));
  if (workspace === undefined) throw notFound(`webhook source ${source.id} does not exist: its workspace was deleted`);
  return budget.run(() => deps.privacy.handle(workspace, source, request, sha256Hex(raw.toString('utf8'))));
}

/**
 * A signed delivery of one of Shopify's privacy topics to a Shopify source: done (or found done before) within the
 * request's storage deadline and answered 200 with what was done; a body that is not such a request is acknowledged
 * and recorded as refused, as any signed Shopify delivery Signalbox cannot use.
 */
export async function answerPrivacyDelivery(deps: PrivacyDeliveryDeps, source: WebhookSourceWithSecret, topic: PrivacyTopic, raw: Buffer, budget: StorageBudget): Promise<WebhookDeliveryBody> {
  const done = await doPrivacyRequest(deps, source, readPrivacyDelivery(topic, raw), raw, budget);
  return { success: true, stored: 0, note: `${topic}: ${done}` };
}

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isPrivacyTopic, PRIVACY_TOPICS, type PrivacyRequest } from '../../domain/shopify/privacy-requests';
import { checkShopifySignature } from '../../domain/webhooks/signatures';
import { badRequest, notFound, unauthorized } from '../http/http-error';
import { SHOPIFY_APP_UNINSTALLED_PATH, SHOPIFY_COMPLIANCE_PATH } from '../http/paths';
import type { ShopifyConnectionService } from '../services/shopify-connection';
import { doPrivacyRequest, readPrivacyDelivery, type PrivacyDeliveryDeps } from './shopify-privacy-delivery';
import { createStorageBudget } from './storage-deadline';
import { UnstoredDelivery } from './webhook-delivery';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim();

export interface ShopifyAppRoutesOptions extends PrivacyDeliveryDeps {
  connections: ShopifyConnectionService;
  storageDeadlineMs: number;
}

/**
 * What Shopify posts for the Signalbox app itself rather than to a shop's source, signed with the app's secret
 * (`X-Shopify-Hmac-Sha256` over the raw body, checked before anything is read; 401 when wrong, as Shopify requires):
 * - `POST /v1/shopify/app-uninstalled`: `app/uninstalled` for a shop that removed the app, named in
 *   `X-Shopify-Shop-Domain`. Signalbox forgets the connection (Shopify itself drops the app's webhooks and script with
 *   the app). Answered 200 for a shop no longer connected too, so that Shopify does not retry.
 * - `POST /v1/shopify/compliance`: the privacy topics (`X-Shopify-Topic`) for any shop, done as a source's own privacy
 *   deliveries are (shopify-privacy-delivery.ts) for each source Connect Shopify made for the shop that still exists,
 *   connected or not (shop/redact comes 48 hours after uninstalling); 200 with nothing done when there is none.
 */
export const shopifyAppRoutes: FastifyPluginAsync<ShopifyAppRoutesOptions> = async (app, options) => {
  const { connections } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  /** The raw body, once its signature is the app's. */
  function signedBody(request: FastifyRequest): Buffer {
    const secret = connections.appSecret();
    if (secret === undefined) throw notFound('Connect Shopify is not set up on this server (SHOPIFY_API_SECRET is not set)');
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const check = checkShopifySignature(raw, header(request.headers['x-shopify-hmac-sha256']), secret);
    if (!check.ok) throw unauthorized(check.reason);
    return raw;
  }

  app.post(SHOPIFY_APP_UNINSTALLED_PATH, async (request) => {
    signedBody(request);
    const topic = header(request.headers['x-shopify-topic']);
    if (topic !== 'app/uninstalled') throw badRequest(`X-Shopify-Topic must be app/uninstalled here, not ${topic ?? 'missing'}`);
    const shop = header(request.headers['x-shopify-shop-domain']);
    if (shop === undefined || shop === '') throw badRequest('X-Shopify-Shop-Domain header is missing: Shopify names the shop in it');
    const forgotten = await connections.uninstalled(shop);
    return { success: true, disconnected: forgotten };
  });

  app.post(SHOPIFY_COMPLIANCE_PATH, async (request) => {
    const raw = signedBody(request);
    const topic = header(request.headers['x-shopify-topic']) ?? '';
    if (!isPrivacyTopic(topic)) throw badRequest(`X-Shopify-Topic must be one of ${PRIVACY_TOPICS.join(', ')} here, not ${topic === '' ? 'missing' : topic}`);
    let asked: PrivacyRequest;
    try {
      asked = readPrivacyDelivery(topic, raw);
    } catch (error) {
      if (!(error instanceof UnstoredDelivery)) throw error;
      throw badRequest(`${topic}: ${error.message}`);
    }
    // The body's shop_domain is signed; the header is not, and only stands in when the body names no shop.
    const shop = asked.shopDomain ?? header(request.headers['x-shopify-shop-domain']);
    if (shop === undefined || shop === '') throw badRequest(`${topic}: shop_domain is missing from the body and X-Shopify-Shop-Domain from the headers: Shopify names the shop in both`);
    const budget = createStorageBudget(options.storageDeadlineMs);
    const sources = await budget.run(() => connections.complianceSources(shop));
    const done: string[] = [];
    for (const source of sources) done.push(`${source.id}: ${await doPrivacyRequest(options, source, asked, raw, budget)}`);
    return { success: true, sources: sources.map((source) => source.id), note: done.length === 0 ? `${topic}: Signalbox holds no data of ${shop}, so there is nothing to do` : `${topic}: ${done.join('; ')}` };
  });
};

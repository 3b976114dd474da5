import type { Knex } from 'knex';
import type { Repositories } from '../../db/repositories';
import type { WebhookTargetRule } from '../../notify/webhook-target';
import { createPublicLinks } from '../http/public-links';
import { createShopifyAdmin, createShopifyConnectionService, ShopifyConnectionError, type ShopifyApp, type ShopifyConnectionService } from './shopify-connection';
import { createOAuthStateSigner } from './tiktok-connection';

export interface ShopifyServicesDeps {
  db: Knex;
  repos: Repositories;
  /** SHOPIFY_API_KEY and SHOPIFY_API_SECRET; unset, Connect Shopify says it is not set up. */
  app: ShopifyApp;
  /** SHOPIFY_SHOP_URL: `https://{shop}`, or the fake Shopify's address with `{shop}` in it. */
  shopUrl: string;
  /** ALERT_WEBHOOK_INTERNAL_ADDRESSES: whether a shop's address may be internal (the dev stack's fake). */
  targets: WebhookTargetRule;
  publicUrl: string;
  /** SECRET_KEY (and SECRET_KEY_PREVIOUS during a rotation): the OAuth `state` is signed under a key derived from it. */
  secretKey: string;
  previousSecretKey?: string;
}

/** Wires Connect Shopify for `server.ts` and the test app. */
export function createShopifyConnections(deps: ShopifyServicesDeps): ShopifyConnectionService {
  return createShopifyConnectionService({
    repos: deps.repos,
    transaction: (work) => deps.db.transaction(work),
    app: deps.app,
    admin: createShopifyAdmin({ shopUrl: deps.shopUrl, targets: deps.targets }),
    states: createOAuthStateSigner(deps.secretKey, { previousKeyHex: deps.previousSecretKey, platform: 'shopify', refuse: (code, message) => new ShopifyConnectionError(code, message) }),
    links: createPublicLinks(deps.publicUrl),
  });
}

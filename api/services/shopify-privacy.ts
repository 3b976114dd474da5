import type { Knex } from 'knex';
import type { Repositories } from '../../db/repositories';
import type { WebhookSource } from '../../db/repositories/webhook-sources';
import type { Workspace } from '../../db/repositories/workspaces';
import { subjectNodes } from '../../domain/personal-data';
import type { PrivacyRequest } from '../../domain/shopify/privacy-requests';
import { orderOwnId } from '../../domain/shopify/topics';
import type { ErasureService } from './erasure';

export interface ShopifyPrivacyDeps {
  db: Knex;
  repos: Pick<Repositories, 'shopifyPrivacyRequests' | 'changeLog'>;
  erasures: ErasureService;
}

/** Who erased, in the erasure log and the change log: Shopify, for a customer of the shop (api/console/actor-names.ts). */
export const shopifyActor = (shop: string) => `shopify:${shop}`;

/**
 * Shopify's mandatory privacy webhooks for a source (docs/reference/shopify-app.md "Privacy webhooks"),
 * each done in one transaction with its record, once per signed body: a repeat finds the record and does nothing.
 * - customers/redact erases the customer through the erasure service (by their Shopify customer ID, email, phone, and
 *   the orders named), logged like any erasure, and the customer's earlier data requests stop naming them;
 * - shop/redact removes what this source stored from the shop (db/repositories/source-data-removal.ts);
 * - customers/data_request is recorded for the owner, who answers the customer (Settings, "Privacy requests from Shopify").
 */
export function createShopifyPrivacy({ db, repos, erasures }: ShopifyPrivacyDeps) {
  const requests = repos.shopifyPrivacyRequests;
  return {
    /** Does what the request asks; answers what was done, in a sentence. */
    async handle(workspace: Workspace, source: WebhookSource, request: PrivacyRequest, bodySha256: string): Promise<string> {
      const shop = request.shopDomain ?? null;
      const done = await db.transaction(async (trx) => {
        const recorded = await requests.record(
          {
            workspace_id: workspace.id,
            source_id: source.id,
            topic: request.topic,
            body_sha256: bodySha256,
            shop_domain: shop,
            ...(request.topic === 'customers/data_request' ? { customer: request.customer, orders: request.orders, data_request_id: request.dataRequestId ?? null } : {}),
          },
          trx,
        );
        if (recorded === undefined) return undefined;
        const actor = shopifyActor(shop ?? source.name);
        switch (request.topic) {
          case 'customers/data_request':
            return 'recorded for the workspace owner, who sends the customer their data';
          case 'customers/redact': {
            const { nodes } = subjectNodes(request.customer, workspace.defaultPhoneRegion);
            const orders = request.orders.map((id) => ({ kind: 'anonymous_id' as const, value: orderOwnId(id) }));
            const erasure = await erasures.erase(workspace.id, [...nodes, ...orders], actor, trx);
            await requests.forgetCustomer(source.id, request.customer, trx);
            await requests.complete(recorded.id, { erasure_id: erasure.id }, trx);
            return 'the customer is erased';
          }
          case 'shop/redact': {
            const removed = await erasures.removeSourceData(workspace.id, source.id, trx);
            await requests.complete(recorded.id, { removed }, trx);
            await repos.changeLog.record({ workspaceId: workspace.id, actor, action: 'source.shop_redact', target: source.id, after: { name: source.name, shop, erased: { ...removed } } }, trx);
            return "the shop's data stored by this source is removed";
          }
        }
      });
      if (done !== undefined) return done;
      const first = await requests.find(source.id, bodySha256);
      return `already done: the same request was received on ${first?.received_at.toISOString() ?? 'an earlier delivery'}`;
    },
  };
}

export type ShopifyPrivacy = ReturnType<typeof createShopifyPrivacy>;

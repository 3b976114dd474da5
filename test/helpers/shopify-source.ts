import type { FastifyInstance } from 'fastify';
import type { ShopifyDeliveryRequest } from '../../devstack/shopify-fake';
import { TEST_ADMIN_TOKEN } from './test-app';

/** A Shopify source made through the settings API with the shop's key: its ID and its webhook path. */
export async function createShopifySource(app: FastifyInstance, workspaceId: string, name: string, shopKey: string): Promise<{ id: string; path: string }> {
  const created = await app.inject({
    method: 'POST',
    url: `/admin/workspaces/${workspaceId}/sources`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { type: 'shopify', name, signingSecret: shopKey },
  });
  if (created.statusCode !== 201) throw new Error(`creating the source answered ${created.statusCode}: ${created.body}`);
  const { id, webhookUrl } = created.json() as { id: string; webhookUrl: string };
  return { id, path: new URL(webhookUrl).pathname };
}

/** A delivery posted to a source's webhook path, as Shopify sends it; the answer's status and JSON body. */
export async function postShopifyToApp(app: FastifyInstance, path: string, delivery: ShopifyDeliveryRequest): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.inject({ method: 'POST', url: path, headers: delivery.headers, payload: delivery.body });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

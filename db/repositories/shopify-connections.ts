import type { Knex } from 'knex';
import type { SecretBox } from '../secret-box';

/** A webhook subscription Signalbox made in the shop: the topic (`orders/create`) and Shopify's ID for it. */
export interface ShopifySubscription {
  topic: string;
  id: string;
}

export interface ShopifyConnectionRow {
  workspace_id: string;
  shop_domain: string;
  /** Sealed with SECRET_KEY (db/sealed-columns.ts). */
  access_token_ciphertext: string;
  granted_scopes: string[];
  source_id: string | null;
  browser_key_id: string | null;
  webhook_subscriptions: ShopifySubscription[];
  script_tag_id: string | null;
  script_tag_src: string | null;
  connected_at: Date;
  updated_at: Date;
}

declare module 'knex/types/tables' {
  interface Tables {
    shopify_connections: ShopifyConnectionRow;
  }
}

/** A connection as shown: never its token. */
export interface ShopifyConnection {
  workspaceId: string;
  shopDomain: string;
  grantedScopes: string[];
  sourceId: string | null;
  browserKeyId: string | null;
  subscriptions: ShopifySubscription[];
  scriptTag: { id: string; src: string } | null;
  connectedAt: Date;
  updatedAt: Date;
}

export interface ShopifyConnectionWithToken extends ShopifyConnection {
  accessToken: string;
}

const TOKEN_COLUMN = 'shopify_connections.access_token_ciphertext';

function toConnection(row: ShopifyConnectionRow): ShopifyConnection {
  return {
    workspaceId: row.workspace_id,
    shopDomain: row.shop_domain,
    grantedScopes: row.granted_scopes,
    sourceId: row.source_id,
    browserKeyId: row.browser_key_id,
    subscriptions: row.webhook_subscriptions,
    scriptTag: row.script_tag_id === null ? null : { id: row.script_tag_id, src: row.script_tag_src ?? '' },
    connectedAt: row.connected_at,
    updatedAt: row.updated_at,
  };
}

/** Connect Shopify's installations (issue 46); the shop's token is sealed before it is written. */
export function createShopifyConnectionRepository(db: Knex, secrets: SecretBox) {
  const withToken = (row: ShopifyConnectionRow | undefined): ShopifyConnectionWithToken | undefined =>
    row && { ...toConnection(row), accessToken: secrets.open(TOKEN_COLUMN, row.access_token_ciphertext) };

  return {
    async find(workspaceId: string, executor: Knex = db): Promise<ShopifyConnection | undefined> {
      const row = await executor('shopify_connections').where({ workspace_id: workspaceId }).first();
      return row && toConnection(row);
    },

    async withToken(workspaceId: string, executor: Knex = db): Promise<ShopifyConnectionWithToken | undefined> {
      return withToken(await executor('shopify_connections').where({ workspace_id: workspaceId }).first());
    },

    /** Which workspace holds this shop, if any. */
    async byShop(shopDomain: string, executor: Knex = db): Promise<ShopifyConnection | undefined> {
      const row = await executor('shopify_connections').where({ shop_domain: shopDomain }).first();
      return row && toConnection(row);
    },

    /** A new token for the workspace's shop; what was made in the shop before is listed until `recordInstalled` replaces it. */
    async putAuthorized(workspaceId: string, input: { shopDomain: string; accessToken: string; grantedScopes: string[]; sourceId: string; browserKeyId: string }, executor: Knex = db): Promise<ShopifyConnection> {
      const values = {
        shop_domain: input.shopDomain,
        access_token_ciphertext: secrets.seal(TOKEN_COLUMN, input.accessToken),
        granted_scopes: input.grantedScopes,
        source_id: input.sourceId,
        browser_key_id: input.browserKeyId,
        updated_at: executor.fn.now() as never,
      };
      const [row] = await executor('shopify_connections')
        .insert({ workspace_id: workspaceId, ...values, connected_at: executor.fn.now() as never })
        .onConflict('workspace_id')
        .merge(values)
        .returning('*');
      return toConnection(row as ShopifyConnectionRow);
    },

    /** What Signalbox made in the shop, as Shopify named it. */
    async recordInstalled(workspaceId: string, installed: { subscriptions: ShopifySubscription[]; scriptTag: { id: string; src: string } | null }, executor: Knex = db): Promise<ShopifyConnection | undefined> {
      const [row] = await executor('shopify_connections')
        .where({ workspace_id: workspaceId })
        .update({
          webhook_subscriptions: JSON.stringify(installed.subscriptions) as never,
          script_tag_id: installed.scriptTag?.id ?? null,
          script_tag_src: installed.scriptTag?.src ?? null,
          updated_at: executor.fn.now() as never,
        })
        .returning('*');
      return row && toConnection(row as ShopifyConnectionRow);
    },

    async remove(workspaceId: string, executor: Knex = db): Promise<ShopifyConnection | undefined> {
      const [row] = await executor('shopify_connections').where({ workspace_id: workspaceId }).delete().returning('*');
      return row && toConnection(row as ShopifyConnectionRow);
    },
  };
}

export type ShopifyConnectionRepository = ReturnType<typeof createShopifyConnectionRepository>;

import type { Knex } from 'knex';
import type { ErasureSubject } from '../../domain/personal-data';
import type { PrivacyTopic } from '../../domain/shopify/privacy-requests';
import type { RemovedSourceData } from './source-data-removal';

export interface ShopifyPrivacyRequestRow {
  id: string;
  workspace_id: string;
  source_id: string;
  topic: PrivacyTopic;
  /** SHA-256 of the signed body: a repeat of it is the same request. */
  body_sha256: string;
  received_at: Date;
  shop_domain: string | null;
  /** customers/data_request: whom to answer, until that customer is erased. */
  customer: ErasureSubject | null;
  orders: string[] | null;
  data_request_id: string | null;
  /** customers/redact: its entry in the erasure log. */
  erasure_id: string | null;
  /** shop/redact: what went, counted. */
  removed: RemovedSourceData | null;
}

declare module 'knex/types/tables' {
  interface Tables {
    shopify_privacy_requests: ShopifyPrivacyRequestRow;
  }
}

export type NewShopifyPrivacyRequest = Pick<ShopifyPrivacyRequestRow, 'workspace_id' | 'source_id' | 'topic' | 'body_sha256'> &
  Partial<Pick<ShopifyPrivacyRequestRow, 'shop_domain' | 'customer' | 'orders' | 'data_request_id'>>;

export interface ListedPrivacyRequest extends ShopifyPrivacyRequestRow {
  source_name: string;
  /** customers/redact: what its erasure removed. */
  erased: Record<string, number> | null;
}

const json = (value: unknown) => (value === undefined || value === null ? null : (JSON.stringify(value) as never));

/** Shopify's privacy requests, per source (issue 46). */
export function createShopifyPrivacyRequestRepository(db: Knex) {
  return {
    /** The request already received with this body, if any. */
    async find(sourceId: string, bodySha256: string, executor: Knex = db): Promise<ShopifyPrivacyRequestRow | undefined> {
      return executor('shopify_privacy_requests').where({ source_id: sourceId, body_sha256: bodySha256 }).first();
    },

    /** Records a request; undefined when the same body was recorded first (a concurrent repeat). */
    async record(entry: NewShopifyPrivacyRequest, executor: Knex = db): Promise<ShopifyPrivacyRequestRow | undefined> {
      const [row] = await executor('shopify_privacy_requests')
        .insert({ ...entry, customer: json(entry.customer), orders: json(entry.orders) })
        .onConflict(['source_id', 'body_sha256'])
        .ignore()
        .returning('*');
      return row as ShopifyPrivacyRequestRow | undefined;
    },

    /** What a recorded request did: its erasure, or what the shop's removal removed. */
    async complete(id: string, outcome: Partial<Pick<ShopifyPrivacyRequestRow, 'erasure_id' | 'removed'>>, executor: Knex = db): Promise<void> {
      await executor('shopify_privacy_requests')
        .where({ id })
        .update({ ...(outcome.erasure_id === undefined ? {} : { erasure_id: outcome.erasure_id }), ...(outcome.removed === undefined ? {} : { removed: json(outcome.removed) }) });
    },

    /** An erased customer's earlier data requests no longer name them (nor their orders). */
    async forgetCustomer(sourceId: string, customer: ErasureSubject, executor: Knex = db): Promise<void> {
      const named = (['userId', 'email', 'phone'] as const).filter((field) => customer[field] !== undefined);
      if (named.length === 0) return;
      await executor('shopify_privacy_requests')
        .where({ source_id: sourceId, topic: 'customers/data_request' })
        .where((query) => {
          for (const field of named) void query.orWhereRaw('customer->>? = ?', [field, customer[field] as string]);
        })
        .update({ customer: null, orders: null });
    },

    /** The workspace's latest requests, newest first, with their source's name and what an erasure removed. */
    async list(workspaceId: string, limit: number, executor: Knex = db): Promise<ListedPrivacyRequest[]> {
      return executor('shopify_privacy_requests as r')
        .join('webhook_sources as s', 's.id', 'r.source_id')
        .leftJoin('erasure_requests as e', 'e.id', 'r.erasure_id')
        .where('r.workspace_id', workspaceId)
        .orderBy('r.received_at', 'desc')
        .limit(limit)
        .select('r.*', 's.name as source_name', 'e.erased as erased');
    },
  };
}

export type ShopifyPrivacyRequestRepository = ReturnType<typeof createShopifyPrivacyRequestRepository>;

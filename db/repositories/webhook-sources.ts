import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CartState } from '../../domain/shopify/cart';
import type { WebhookMapping } from '../../domain/webhooks/mapping';
import type { SecretBox } from '../secret-box';
import { newId } from './ids';

export type WebhookSourceType = 'shopify' | 'webhook';

export interface WebhookSourceRow {
  id: string;
  workspace_id: string;
  type: WebhookSourceType;
  name: string;
  /** Sealed with SECRET_KEY (db/sealed-columns.ts). */
  signing_secret_ciphertext: string;
  signature_header: string | null;
  mapping: WebhookMapping | null;
  created_at: Date;
  secret_set_at: Date;
  /** True when Signalbox made the secret (none was given), false when it was given (Shopify's key). */
  secret_made: boolean;
  last_delivery_at: Date | null;
  last_refusal_at: Date | null;
  last_refusal_status: number | null;
  last_refusal_message: string | null;
}

export interface ShopifyCartRow {
  source_id: string;
  cart_token: string;
  /** The message ID of the delivery that left the state (CartState's `deliveryId`; named when that was `X-Shopify-Webhook-Id`). */
  webhook_id: string;
  cart_updated_at: Date;
  quantities: Record<string, number>;
  previous_quantities: Record<string, number>;
  seen_at: Date;
}

declare module 'knex/types/tables' {
  interface Tables {
    webhook_sources: WebhookSourceRow;
    shopify_carts: ShopifyCartRow;
  }
}

/** A source as listed: never its secret. */
export interface WebhookSource {
  id: string;
  workspaceId: string;
  type: WebhookSourceType;
  name: string;
  /** Generic webhooks: the header holding the signature. */
  signatureHeader: string | null;
  mapping: WebhookMapping | null;
  createdAt: Date;
  secretSetAt: Date;
  /** Signalbox made the secret (none was given); false when it was given (for a Shopify source, Shopify's key). */
  secretMade: boolean;
  lastDeliveryAt: Date | null;
  lastRefusal: { at: Date; status: number; message: string } | null;
}

const SECRET_COLUMN = 'webhook_sources.signing_secret_ciphertext';

/** What ingest needs to check and map a delivery: the source and its secret, opened. */
export interface WebhookSourceWithSecret extends WebhookSource {
  signingSecret: string;
}

export interface NewWebhookSource {
  type: WebhookSourceType;
  name: string;
  /** Given (Shopify's key), else made here. */
  signingSecret?: string;
  signatureHeader?: string | null;
  mapping?: WebhookMapping | null;
}

/** 32 random bytes, hex: what a generated secret is (the `whsec_`-like prefix says what it is when it turns up in a log). */
export function generateSigningSecret(): string {
  return `sbxwh_${randomBytes(32).toString('hex')}`;
}

function toSource(row: WebhookSourceRow): WebhookSource {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    type: row.type,
    name: row.name,
    signatureHeader: row.signature_header,
    mapping: row.mapping,
    createdAt: row.created_at,
    secretSetAt: row.secret_set_at,
    secretMade: row.secret_made,
    lastDeliveryAt: row.last_delivery_at,
    lastRefusal: row.last_refusal_at === null ? null : { at: row.last_refusal_at, status: row.last_refusal_status ?? 0, message: row.last_refusal_message ?? '' },
  };
}

/** Webhook sources (issue 29); the signing secret is sealed before it is written and opened only to check a delivery. */
export function createWebhookSourceRepository(db: Knex, secrets: SecretBox) {
  return {
    /** The source and the secret it was given or made (shown once by the caller). */
    async create(workspaceId: string, input: NewWebhookSource, executor: Knex = db): Promise<WebhookSource & { signingSecret: string }> {
      const signingSecret = input.signingSecret ?? generateSigningSecret();
      const [row] = await executor('webhook_sources')
        .insert({
          id: newId('src'),
          workspace_id: workspaceId,
          type: input.type,
          name: input.name,
          signing_secret_ciphertext: secrets.seal(SECRET_COLUMN, signingSecret),
          secret_made: input.signingSecret === undefined,
          signature_header: input.signatureHeader ?? null,
          mapping: input.mapping === undefined || input.mapping === null ? null : (JSON.stringify(input.mapping) as never),
        })
        .returning('*');
      return { ...toSource(row as WebhookSourceRow), signingSecret };
    },

    async list(workspaceId: string, executor: Knex = db): Promise<WebhookSource[]> {
      const rows = await executor('webhook_sources').where({ workspace_id: workspaceId }).orderBy('created_at');
      return rows.map(toSource);
    },

    async find(workspaceId: string, id: string, executor: Knex = db): Promise<WebhookSource | undefined> {
      const row = await executor('webhook_sources').where({ workspace_id: workspaceId, id }).first();
      return row && toSource(row);
    },

    /** For ingest: any workspace's source, by the ID its webhook URL carries. */
    async withSecret(id: string, executor: Knex = db): Promise<WebhookSourceWithSecret | undefined> {
      const row = await executor('webhook_sources').where({ id }).first();
      return row && { ...toSource(row), signingSecret: secrets.open(SECRET_COLUMN, row.signing_secret_ciphertext) };
    },

    /** For ingest: every workspace's sources of this type and name (Connect Shopify's source of a shop no longer connected). */
    async withSecretNamed(type: WebhookSourceType, name: string, executor: Knex = db): Promise<WebhookSourceWithSecret[]> {
      const rows = await executor('webhook_sources').where({ type, name }).orderBy('created_at');
      return rows.map((row) => ({ ...toSource(row), signingSecret: secrets.open(SECRET_COLUMN, row.signing_secret_ciphertext) }));
    },

    /** A new secret (given, or made here); deliveries signed with the old one are refused from now on. */
    async setSecret(workspaceId: string, id: string, given: string | undefined, executor: Knex = db): Promise<(WebhookSource & { signingSecret: string }) | undefined> {
      const signingSecret = given ?? generateSigningSecret();
      const [row] = await executor('webhook_sources')
        .where({ workspace_id: workspaceId, id })
        .update({ signing_secret_ciphertext: secrets.seal(SECRET_COLUMN, signingSecret), secret_made: given === undefined, secret_set_at: executor.fn.now() as never })
        .returning('*');
      return row && { ...toSource(row as WebhookSourceRow), signingSecret };
    },

    async update(workspaceId: string, id: string, changes: { name?: string; signatureHeader?: string; mapping?: WebhookMapping }, executor: Knex = db): Promise<WebhookSource | undefined> {
      const values: Partial<WebhookSourceRow> = {};
      if (changes.name !== undefined) values.name = changes.name;
      if (changes.signatureHeader !== undefined) values.signature_header = changes.signatureHeader;
      if (changes.mapping !== undefined) values.mapping = JSON.stringify(changes.mapping) as never;
      if (Object.keys(values).length === 0) return this.find(workspaceId, id, executor);
      const [row] = await executor('webhook_sources').where({ workspace_id: workspaceId, id }).update(values).returning('*');
      return row && toSource(row as WebhookSourceRow);
    },

    async remove(workspaceId: string, id: string, executor: Knex = db): Promise<WebhookSource | undefined> {
      const [row] = await executor('webhook_sources').where({ workspace_id: workspaceId, id }).delete().returning('*');
      return row && toSource(row as WebhookSourceRow);
    },

    async recordDelivery(id: string, at: Date, executor: Knex = db): Promise<void> {
      await executor('webhook_sources').where({ id }).update({ last_delivery_at: at });
    },

    async recordRefusal(id: string, refusal: { at: Date; status: number; message: string }, executor: Knex = db): Promise<void> {
      await executor('webhook_sources').where({ id }).update({ last_refusal_at: refusal.at, last_refusal_status: refusal.status, last_refusal_message: refusal.message.slice(0, 2000) });
    },

    /** What the cart's last delivery left (carts/update). */
    async cartState(sourceId: string, cartToken: string, executor: Knex = db): Promise<CartState | undefined> {
      const row = await executor('shopify_carts').where({ source_id: sourceId, cart_token: cartToken }).first();
      return row && { deliveryId: row.webhook_id, updatedAt: row.cart_updated_at.toISOString(), quantities: row.quantities, previousQuantities: row.previous_quantities };
    },

    /** Remembers a cart's state, unless one of a later `updated_at` is there already (deliveries may come out of order). */
    async rememberCart(sourceId: string, cartToken: string, state: CartState, executor: Knex = db): Promise<void> {
      await executor.raw(
        `INSERT INTO shopify_carts AS c (source_id, cart_token, webhook_id, cart_updated_at, quantities, previous_quantities)
         VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb)
         ON CONFLICT (source_id, cart_token) DO UPDATE SET
           webhook_id = excluded.webhook_id, cart_updated_at = excluded.cart_updated_at, quantities = excluded.quantities,
           previous_quantities = excluded.previous_quantities, seen_at = now()
         WHERE c.cart_updated_at <= excluded.cart_updated_at`,
        [sourceId, cartToken, state.deliveryId, state.updatedAt, JSON.stringify(state.quantities), JSON.stringify(state.previousQuantities)],
      );
    },

    /** Carts not seen for `olderThan`: their orders are long placed or abandoned. */
    async pruneCarts(olderThan: Date, executor: Knex = db): Promise<number> {
      return executor('shopify_carts').where('seen_at', '<', olderThan).delete();
    },
  };
}

export type WebhookSourceRepository = ReturnType<typeof createWebhookSourceRepository>;

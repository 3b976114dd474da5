/**
 * Every column whose values are sealed with SECRET_KEY (db/secret-box.ts). Rotation (`signalbox secrets rotate`)
 * re-seals exactly these, and OPERATIONS.md's "What SECRET_KEY seals" (which the backup notes point to) lists them;
 * `db/sealed-columns.test.ts` keeps that table equal to this one. A repository can only seal or open a value for a
 * column named here, and every integration test's database is searched for sealed values in any other column before
 * it is dropped (test/helpers/database.ts), so a new sealed column left out of this list fails the suite.
 */
export const SEALED_COLUMNS = [
  {
    table: 'tiktok_connections',
    column: 'access_token_ciphertext',
    rowKey: 'workspace_id',
    holds: "each workspace's TikTok access token (pasted from Events Manager or granted through OAuth)",
  },
  {
    table: 'alert_settings',
    column: 'webhook_url_ciphertext',
    rowKey: 'workspace_id',
    holds: "each workspace's alert webhook URL (a Slack incoming-webhook URL lets whoever holds it post to the channel)",
  },
  {
    table: 'webhook_sources',
    column: 'signing_secret_ciphertext',
    rowKey: 'id',
    holds: 'each Shopify or webhook source\'s signing secret (whoever holds it can sign deliveries as the shop\'s platform)',
  },
  {
    table: 'shopify_connections',
    column: 'access_token_ciphertext',
    rowKey: 'workspace_id',
    holds: "each connected shop's Shopify Admin API access token (Connect Shopify: whoever holds it reads the shop's orders and customers)",
  },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

type NameOf<C> = C extends { table: infer T extends string; column: infer K extends string } ? `${T}.${K}` : never;

/** `table.column`, as sealing, rotation and the docs name a sealed column. */
export type SealedColumnName = NameOf<SealedColumn>;

export const sealedColumnName = ({ table, column }: SealedColumn): SealedColumnName => `${table}.${column}` as SealedColumnName;

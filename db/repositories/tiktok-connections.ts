import type { Knex } from 'knex';
import type { SecretBox } from '../secret-box';
import type { AccessibleAdvertiser, TikTokConnectionRow, TikTokConnectionStatus } from '../types';

export interface TikTokConnectionSummary {
  workspaceId: string;
  advertiserId: string | null;
  /** The advertiser's name as TikTok listed it when the token was granted; null when unknown (a manual token). */
  advertiserName: string | null;
  pixelCode: string | null;
  /** The pixel's name as TikTok listed it when it was chosen; null when unknown (a manual token). */
  pixelName: string | null;
  /** TikTok App ID that mobile-app events are sent under (in place of the pixel). */
  appId: string | null;
  /** The Offline Event Set (`event_source` `offline`) and CRM Event Set (`crm`) chosen, with their names as TikTok listed them. */
  offlineEventSetId: string | null;
  offlineEventSetName: string | null;
  crmEventSetId: string | null;
  crmEventSetName: string | null;
  /** `manual` (a token pasted from Events Manager) or `oauth`. */
  source: string;
  status: TikTokConnectionStatus;
  /** Permission IDs TikTok reported for an OAuth token; null when unknown (manual token). */
  grantedScopes: string[] | null;
  /** Advertisers the OAuth token may use, as listed when it was granted; null for a manual token. */
  accessibleAdvertisers: AccessibleAdvertiser[] | null;
  authorizedAt: Date | null;
  statsPulledAt: Date | null;
  /** Why the last statistics pull failed; null after a successful one. */
  statsPullError: string | null;
  /** The advertiser's currency and time zone as TikTok's advertiser info gave them at the last pull; null until read. */
  advertiserCurrency: string | null;
  advertiserTimeZone: string | null;
  advertiserInfoAt: Date | null;
  updatedAt: Date;
}

export interface TikTokConnection extends TikTokConnectionSummary {
  accessToken: string;
}

export interface TikTokConnectionInput {
  accessToken: string;
  advertiserId: string | null;
  pixelCode: string | null;
  source?: string;
}

export interface AuthorizedConnectionInput {
  accessToken: string;
  grantedScopes: string[];
  accessibleAdvertisers: AccessibleAdvertiser[];
}

function toSummary(row: TikTokConnectionRow): TikTokConnectionSummary {
  return {
    workspaceId: row.workspace_id,
    advertiserId: row.advertiser_id,
    advertiserName: row.accessible_advertisers?.find((a) => a.advertiserId === row.advertiser_id)?.advertiserName || null,
    pixelCode: row.pixel_code,
    pixelName: row.pixel_name,
    appId: row.app_id,
    offlineEventSetId: row.offline_event_set_id,
    offlineEventSetName: row.offline_event_set_name,
    crmEventSetId: row.crm_event_set_id,
    crmEventSetName: row.crm_event_set_name,
    source: row.source,
    status: row.status,
    grantedScopes: row.granted_scopes,
    accessibleAdvertisers: row.accessible_advertisers,
    authorizedAt: row.authorized_at,
    statsPulledAt: row.stats_pulled_at,
    statsPullError: row.stats_pull_error,
    advertiserCurrency: row.advertiser_currency,
    advertiserTimeZone: row.advertiser_time_zone,
    advertiserInfoAt: row.advertiser_info_at,
    updatedAt: row.updated_at,
  };
}

const TOKEN_COLUMN = 'tiktok_connections.access_token_ciphertext';

/** TikTok's event sets besides the pixel and the app (contract/event-set-kinds.ts, which this layer may not import). */
type EventSetKind = 'offline' | 'crm';

/** The Offline and CRM Event Sets belong to the advertiser: they go when it changes, as its pixel does. */
const EVENT_SET_COLUMNS = ['offline_event_set_id', 'offline_event_set_name', 'crm_event_set_id', 'crm_event_set_name'] as const;

/** A new token keeps the event sets chosen while its advertiser is the one they were chosen for. */
function keptWhileAdvertiser(executor: Knex, advertiserId: string | null) {
  return Object.fromEntries(
    EVENT_SET_COLUMNS.map((column) => [column, executor.raw(`CASE WHEN tiktok_connections.advertiser_id IS NOT DISTINCT FROM ?::text THEN tiktok_connections.${column} END`, [advertiserId])]),
  );
}

/** The access token is sealed with SECRET_KEY before it is written and opened only when a call to TikTok needs it. */
export function createTikTokConnectionRepository(db: Knex, secrets: SecretBox) {
  return {
    /** A manually entered token (Events Manager): replaces any earlier connection, OAuth details included. */
    async put(workspaceId: string, input: TikTokConnectionInput, executor: Knex = db): Promise<TikTokConnectionSummary> {
      const values = {
        workspace_id: workspaceId,
        access_token_ciphertext: secrets.seal(TOKEN_COLUMN, input.accessToken),
        advertiser_id: input.advertiserId,
        pixel_code: input.pixelCode,
        pixel_name: null,
        source: input.source ?? 'manual',
        status: 'active' as const,
        granted_scopes: null,
        accessible_advertisers: null,
        authorized_at: null,
        stats_pull_error: null,
        advertiser_currency: null,
        advertiser_time_zone: null,
        advertiser_info_at: null,
      };
      const [row] = await executor('tiktok_connections')
        .insert(values)
        .onConflict('workspace_id')
        .merge({ ...values, ...keptWhileAdvertiser(executor, input.advertiserId), updated_at: executor.fn.now() })
        .returning('*');
      return toSummary(row);
    },

    /**
     * A token from the OAuth code exchange. An earlier selection survives re-authorization when its advertiser is
     * still accessible (the pixel with it); otherwise both are cleared for the owner to choose again.
     */
    async putAuthorized(workspaceId: string, input: AuthorizedConnectionInput, executor: Knex = db): Promise<TikTokConnectionSummary> {
      const accessibleIds = input.accessibleAdvertisers.map((a) => a.advertiserId);
      const { rows } = await executor.raw<{ rows: TikTokConnectionRow[] }>(
        `INSERT INTO tiktok_connections AS c
           (workspace_id, access_token_ciphertext, source, status, granted_scopes, accessible_advertisers, authorized_at)
         VALUES (?, ?, 'oauth', 'active', ?::text[], ?::jsonb, now())
         ON CONFLICT (workspace_id) DO UPDATE SET
           access_token_ciphertext = excluded.access_token_ciphertext,
           source = 'oauth',
           status = 'active',
           granted_scopes = excluded.granted_scopes,
           accessible_advertisers = excluded.accessible_advertisers,
           authorized_at = excluded.authorized_at,
           advertiser_id = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.advertiser_id END,
           pixel_code = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.pixel_code END,
           pixel_name = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.pixel_name END,
           advertiser_currency = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.advertiser_currency END,
           advertiser_time_zone = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.advertiser_time_zone END,
           ${EVENT_SET_COLUMNS.map((column) => `${column} = CASE WHEN c.advertiser_id = ANY(?::text[]) THEN c.${column} END,`).join('\n')}
           stats_pull_error = NULL,
           updated_at = now()
         RETURNING *`,
        [workspaceId, secrets.seal(TOKEN_COLUMN, input.accessToken), input.grantedScopes, JSON.stringify(input.accessibleAdvertisers), accessibleIds, accessibleIds, accessibleIds, accessibleIds, accessibleIds, ...EVENT_SET_COLUMNS.map(() => accessibleIds)],
      );
      return toSummary(rows[0] as TikTokConnectionRow);
    },

    /** Choosing another advertiser clears the pixel, event sets, currency and time zone, which belong to the previous one. */
    async selectAdvertiser(workspaceId: string, advertiserId: string, executor: Knex = db): Promise<TikTokConnectionSummary | undefined> {
      const { rows } = await executor.raw<{ rows: TikTokConnectionRow[] }>(
        `UPDATE tiktok_connections SET
           pixel_code = CASE WHEN advertiser_id = ? THEN pixel_code END,
           pixel_name = CASE WHEN advertiser_id = ? THEN pixel_name END,
           advertiser_currency = CASE WHEN advertiser_id = ? THEN advertiser_currency END,
           advertiser_time_zone = CASE WHEN advertiser_id = ? THEN advertiser_time_zone END,
           ${EVENT_SET_COLUMNS.map((column) => `${column} = CASE WHEN advertiser_id = ? THEN ${column} END,`).join('\n')}
           advertiser_id = ?,
           updated_at = now()
         WHERE workspace_id = ?
         RETURNING *`,
        [advertiserId, advertiserId, advertiserId, advertiserId, ...EVENT_SET_COLUMNS.map(() => advertiserId), advertiserId, workspaceId],
      );
      return rows[0] && toSummary(rows[0]);
    },

    /** The App ID is kept across token changes: it belongs to the workspace's app, not to a token. */
    async setAppId(workspaceId: string, appId: string | null, executor: Knex = db): Promise<TikTokConnectionSummary | undefined> {
      const [row] = await executor('tiktok_connections')
        .where({ workspace_id: workspaceId })
        .update({ app_id: appId, updated_at: executor.fn.now() })
        .returning('*');
      return row && toSummary(row);
    },

    async selectPixel(workspaceId: string, pixel: { pixelCode: string; pixelName: string | null }, executor: Knex = db): Promise<TikTokConnectionSummary | undefined> {
      const [row] = await executor('tiktok_connections')
        .where({ workspace_id: workspaceId })
        .update({ pixel_code: pixel.pixelCode, pixel_name: pixel.pixelName, updated_at: executor.fn.now() })
        .returning('*');
      return row && toSummary(row);
    },

    /** The Offline or CRM Event Set chosen (null: none), with its name as TikTok listed it (null when chosen by ID alone). */
    async selectEventSet(
      workspaceId: string,
      kind: EventSetKind,
      choice: { eventSetId: string; eventSetName: string | null } | null,
      executor: Knex = db,
    ): Promise<TikTokConnectionSummary | undefined> {
      const [row] = await executor('tiktok_connections')
        .where({ workspace_id: workspaceId })
        .update({ [`${kind}_event_set_id`]: choice?.eventSetId ?? null, [`${kind}_event_set_name`]: choice?.eventSetName ?? null, updated_at: executor.fn.now() })
        .returning('*');
      return row && toSummary(row);
    },

    async summary(workspaceId: string, executor: Knex = db): Promise<TikTokConnectionSummary | undefined> {
      const row = await executor('tiktok_connections').where({ workspace_id: workspaceId }).first();
      return row && toSummary(row);
    },

    async withToken(workspaceId: string, executor: Knex = db): Promise<TikTokConnection | undefined> {
      const row = await executor('tiktok_connections').where({ workspace_id: workspaceId }).first();
      return row && { ...toSummary(row), accessToken: secrets.open(TOKEN_COLUMN, row.access_token_ciphertext) };
    },

    /** Connections that have an advertiser: each should have a statistics schedule. */
    async withAdvertiser(executor: Knex = db): Promise<TikTokConnectionSummary[]> {
      const rows = await executor('tiktok_connections').whereNotNull('advertiser_id').orderBy('workspace_id');
      return rows.map(toSummary);
    },

    /** TikTok refused the token: deliveries and pulls stop (recorded as skipped) until the owner reconnects. */
    async markReauthorizationRequired(workspaceId: string, executor: Knex = db): Promise<void> {
      await executor('tiktok_connections').where({ workspace_id: workspaceId }).update({ status: 'reauthorization_required', updated_at: executor.fn.now() });
    },

    /** What TikTok's advertiser info says, stored only while the connection still has that advertiser. */
    async recordAdvertiserInfo(workspaceId: string, advertiserId: string, info: { currency: string | null; timeZone: string | null }, executor: Knex = db): Promise<void> {
      await executor('tiktok_connections')
        .where({ workspace_id: workspaceId, advertiser_id: advertiserId })
        .update({ advertiser_currency: info.currency, advertiser_time_zone: info.timeZone, advertiser_info_at: executor.fn.now() });
    },

    async recordStatsPull(workspaceId: string, outcome: { at: Date; error: string | null }, executor: Knex = db): Promise<void> {
      await executor('tiktok_connections')
        .where({ workspace_id: workspaceId })
        .update(outcome.error === null ? { stats_pulled_at: outcome.at, stats_pull_error: null } : { stats_pull_error: outcome.error });
    },

    async remove(workspaceId: string, executor: Knex = db): Promise<boolean> {
      return (await executor('tiktok_connections').where({ workspace_id: workspaceId }).delete()) > 0;
    },
  };
}

export type TikTokConnectionRepository = ReturnType<typeof createTikTokConnectionRepository>;

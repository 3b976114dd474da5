import type { Knex } from 'knex';
import type { BrowserPixelMode, WorkspaceRow } from '../types';
import { newId } from './ids';

export interface WorkspaceSettings {
  attributionWindowDays: number;
  testMode: boolean;
  testEventCode: string | null;
  defaultPhoneRegion: string;
  /** Exact `scheme://host[:port]` origins that browser keys are accepted from. */
  allowedOrigins: string[];
  /** The tracking script stores and sends no identifier until the visitor grants consent (`signalbox.consent.grant()`). */
  consentRequired: boolean;
  /**
   * One unit of each currency in the TikTok advertiser's currency (`{ "EUR": "1.08" }`, exact decimal text): reports
   * convert delivered values with these; without a rate they show each currency apart.
   */
  exchangeRates: Record<string, string>;
  /** Days a raw event keeps its message (30 by default): then it is deleted, or stripped if a conversion refers to it. */
  eventRetentionDays: number;
  /** Days a settled conversion is kept (90 by default), then deleted with its timeline. */
  conversionRetentionDays: number;
  /**
   * A mapped conversion without a click inside the attribution window is sent all the same (without `ttclid`, with
   * every other match key held for the person) for TikTok to match; false (default) skips it, as spec §6.4 says.
   */
  matchWithoutClick: boolean;
  /** Group workflows the conversions are split among (docs/how-it-works.md "Scaling one workspace"); 1 by default. */
  pipelinePartitions: number;
  /**
   * What the tracking tag does with TikTok's pixel: `off` leaves it alone, `load` loads it, `page` uses the one already
   * on the page; with `load` and `page` the pixel gets each conversion with the server's event ID, for TikTok to count once.
   */
  browserPixel: BrowserPixelMode;
  /** TikTok's Limited Data Use: every event, from the server and from the pixel, is flagged for limited processing. */
  limitedDataUse: boolean;
}

export interface Workspace extends WorkspaceSettings {
  id: string;
  name: string;
  createdAt: Date;
}

export function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    attributionWindowDays: row.attribution_window_days,
    testMode: row.test_mode,
    testEventCode: row.test_event_code,
    defaultPhoneRegion: row.default_phone_region,
    allowedOrigins: row.allowed_origins,
    consentRequired: row.consent_required,
    exchangeRates: row.exchange_rates ?? {},
    eventRetentionDays: row.event_retention_days,
    conversionRetentionDays: row.conversion_retention_days,
    matchWithoutClick: row.match_without_click,
    pipelinePartitions: row.pipeline_partitions,
    browserPixel: row.browser_pixel,
    limitedDataUse: row.limited_data_use,
    createdAt: row.created_at,
  };
}

export function createWorkspaceRepository(db: Knex) {
  return {
    async create(name: string, executor: Knex = db): Promise<Workspace> {
      const [row] = await executor('workspaces').insert({ id: newId('ws'), name }).returning('*');
      return toWorkspace(row);
    },

    async find(id: string, executor: Knex = db): Promise<Workspace | undefined> {
      const row = await executor('workspaces').where({ id }).first();
      return row && toWorkspace(row);
    },

    /** Whether any workspace allows this origin: CORS preflights carry no key, so they cannot name their workspace. */
    async anyAllowsOrigin(origin: string, executor: Knex = db): Promise<boolean> {
      const row = await executor('workspaces').whereRaw('allowed_origins @> ARRAY[?]::text[]', [origin]).first('id');
      return row !== undefined;
    },

    async list(executor: Knex = db): Promise<Workspace[]> {
      const rows = await executor('workspaces').orderBy('created_at');
      return rows.map(toWorkspace);
    },

    async rename(id: string, name: string, executor: Knex = db): Promise<Workspace | undefined> {
      const [row] = await executor('workspaces').where({ id }).update({ name, updated_at: executor.fn.now() }).returning('*');
      return row && toWorkspace(row);
    },

    async updateSettings(id: string, changes: Partial<WorkspaceSettings>, executor: Knex = db): Promise<Workspace | undefined> {
      const [row] = await executor('workspaces')
        .where({ id })
        .update({
          attribution_window_days: changes.attributionWindowDays,
          test_mode: changes.testMode,
          test_event_code: changes.testEventCode,
          default_phone_region: changes.defaultPhoneRegion,
          allowed_origins: changes.allowedOrigins,
          consent_required: changes.consentRequired,
          exchange_rates: changes.exchangeRates,
          event_retention_days: changes.eventRetentionDays,
          conversion_retention_days: changes.conversionRetentionDays,
          match_without_click: changes.matchWithoutClick,
          pipeline_partitions: changes.pipelinePartitions,
          browser_pixel: changes.browserPixel,
          limited_data_use: changes.limitedDataUse,
          updated_at: executor.fn.now(),
        })
        .returning('*');
      return row && toWorkspace(row);
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;

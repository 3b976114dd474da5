/**
 * Wire types of the Marketing API endpoints besides `event/track`: OAuth, advertiser, pixel and event set lists, entities and
 * the synchronous report. Field facts: /work/shared/reference/tiktok-api.md §7 and §8. IDs are strings throughout:
 * advertiser, campaign, ad group and ad IDs exceed 2^53 (§0 "ID formats").
 */

/** `data.page_info` of every paged endpoint (§7.2 [V2]). */
export interface TikTokPageInfo {
  page: number;
  page_size: number;
  total_number: number;
  total_page: number;
}

/** `POST /oauth2/access_token/` body (§8 "Token exchange" [V2]). */
export interface TikTokAccessTokenRequest {
  app_id: string;
  secret: string;
  auth_code: string;
}

/** `data` of the code exchange. `scope` holds permission IDs; some exceed 2^53 and are read as strings. */
export interface TikTokAccessTokenData {
  access_token: string;
  advertiser_ids: string[];
  scope: (number | string)[];
}

export interface TikTokAppCredentials {
  appId: string;
  secret: string;
}

export interface TikTokAdvertiser {
  advertiser_id: string;
  advertiser_name: string;
}

export interface TikTokAdvertiserListData {
  list: TikTokAdvertiser[];
}

/**
 * One entry of `advertiser/info` (see config.ts for the sources). `currency` is ISO 4217; `display_timezone` is an IANA
 * zone (`Europe/London`), `timezone` either that or an offset zone (`Etc/GMT+8`).
 */
export interface TikTokAdvertiserInfo {
  advertiser_id: string;
  name?: string;
  currency?: string;
  timezone?: string;
  display_timezone?: string;
  [field: string]: unknown;
}

export interface TikTokAdvertiserInfoData {
  list: TikTokAdvertiserInfo[];
}

/** One pixel of `pixel/list` (§8 "Pixel list response" [V1] GO). `pixel_code` is the `event_source_id`. */
export interface TikTokPixel {
  pixel_id: string;
  pixel_code: string;
  pixel_name: string;
  pixel_category?: string;
  pixel_setup_mode?: string;
  create_time?: string;
  [field: string]: unknown;
}

export interface TikTokPixelListData {
  pixels: TikTokPixel[];
  page_info: TikTokPageInfo;
}

/** One entry of `offline/get` (see config.ts for the sources). */
export interface TikTokOfflineEventSet {
  event_set_id: string;
  name: string;
  description?: string;
  auto_tracking?: boolean;
  [field: string]: unknown;
}

export interface TikTokOfflineEventSetListData {
  event_set_list: TikTokOfflineEventSet[];
}

/** One entry of `crm/list` (see config.ts for the source). */
export interface TikTokCrmEventSet {
  event_set_id: string;
  name: string;
  create_time?: string;
  [field: string]: unknown;
}

export interface TikTokCrmEventSetListData {
  crm_event_sets: TikTokCrmEventSet[];
}

export interface TikTokPageQuery {
  page: number;
  pageSize: number;
}

export interface TikTokPixelQuery extends TikTokPageQuery {
  advertiserId: string;
}

export type TikTokEntityKind = 'campaign' | 'adgroup' | 'ad';

export interface TikTokEntityQuery extends TikTokPageQuery {
  advertiserId: string;
  /** `fields` (JSON array); absent: TikTok's defaults. */
  fields?: readonly string[];
  /** `filtering` (JSON object), e.g. `{ secondary_status: 'CAMPAIGN_STATUS_ALL' }` to include deleted ones. */
  filtering?: Readonly<Record<string, unknown>>;
}

/** One row of `campaign/get`, `adgroup/get` or `ad/get` (§7.4 [V2]); only the fields Signalbox reads are typed. */
export interface TikTokEntity {
  campaign_id?: string;
  campaign_name?: string;
  adgroup_id?: string;
  adgroup_name?: string;
  ad_id?: string;
  ad_name?: string;
  operation_status?: string;
  secondary_status?: string;
  [field: string]: unknown;
}

export interface TikTokEntityListData {
  list: TikTokEntity[];
  page_info: TikTokPageInfo;
}

export type TikTokDataLevel = 'AUCTION_ADVERTISER' | 'AUCTION_CAMPAIGN' | 'AUCTION_ADGROUP' | 'AUCTION_AD';

/** `report/integrated/get` query (§7.1); dates are `YYYY-MM-DD` in the advertiser's time zone, both inclusive. */
export interface TikTokReportQuery extends TikTokPageQuery {
  advertiserId: string;
  dataLevel: TikTokDataLevel;
  dimensions: readonly string[];
  metrics: readonly string[];
  startDate: string;
  endDate: string;
  filtering?: readonly { field_name: string; filter_type: string; filter_value: string }[];
}

/** Metric values are JSON strings (`"76.73"`, `"10505.0"`, `"-"`); some connector mocks send numbers (§7.2). */
export type TikTokMetricValue = string | number | null;

export interface TikTokReportRow {
  dimensions: Record<string, string | number>;
  metrics: Record<string, TikTokMetricValue>;
}

export interface TikTokReportData {
  list: TikTokReportRow[];
  page_info: TikTokPageInfo;
}

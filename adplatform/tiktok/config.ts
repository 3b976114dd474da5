/**
 * Endpoint, version and limits of TikTok's Events API, each with its source in
 * /work/shared/reference/tiktok-api.md (section, confidence tag, sources).
 */

/** Production host. §0 "Production base" [V2] SDK, GO core/const.go, RS, SEG, GTM. */
export const TIKTOK_DEFAULT_BASE_URL = 'https://business-api.tiktok.com';

/** Sandbox host (1 QPS per endpoint). §0 "Sandbox base" [V2] GO core/const.go, AB manifest; limit §2.4 [V1] AE. */
export const TIKTOK_SANDBOX_BASE_URL = 'https://sandbox-ads.tiktok.com';

/** Marketing API version in every path. §0 [V2]. */
export const TIKTOK_API_VERSION = 'v1.3';

/**
 * API paths. All end with `/`: without it TikTok answers 404 (§2.2 [V1] AE).
 * Events API 2.0 track endpoint: §1 [V2] RS config.js, SEG utils.ts, GTM template.js, STAPE, GO api/event/track.go.
 */
export const TIKTOK_PATHS = {
  eventTrack: `/open_api/${TIKTOK_API_VERSION}/event/track/`,
  /** OAuth code exchange, no `Access-Token` header. §8 [V2] SDK Oauth2AccessTokenBody, GO. */
  oauthAccessToken: `/open_api/${TIKTOK_API_VERSION}/oauth2/access_token/`,
  /** Advertisers the token may use (query `app_id`, `secret` plus the header). §8 [V2] SDK, AB, GO. */
  oauthAdvertisers: `/open_api/${TIKTOK_API_VERSION}/oauth2/advertiser/get/`,
  /**
   * An advertiser's account details, among them `currency` and `timezone`/`display_timezone` (query `advertiser_ids`,
   * `fields` as JSON arrays; answer `data.list[]`). Not in the reference file: tiktok-business-api-sdk
   * `yml_files/advertiser_info.yml` (path, parameters) and bububa/tiktok-business `model/advertiser/{info,advertiser}.go`
   * (fields, from TikTok's docs) agree.
   */
  advertiserInfo: `/open_api/${TIKTOK_API_VERSION}/advertiser/info/`,
  /** §8 [V2] SDK pixel_list.yml, GO. */
  pixelList: `/open_api/${TIKTOK_API_VERSION}/pixel/list/`,
  /**
   * An advertiser's Offline Event Sets (the `event_source_id` of `offline` events, §1.1), not paged: query
   * `advertiser_id` (optional filters `event_set_ids`, `name`), answer `data.event_set_list[]` of `event_set_id`,
   * `name`, `description`, `advertiser_id`, `auto_tracking`, `create_time`, `update_time`. Not in the reference file:
   * tiktok-business-api-sdk @ f809c39 `yml_files/offline_get.yml` (TikTok's own; its `x-open-convert: int64` makes
   * the IDs digits). Needs "Read Offline Events" (api-evangelist/tiktok-ads `scopes/tiktok-ads-scopes.yml`).
   */
  offlineGet: `/open_api/${TIKTOK_API_VERSION}/offline/get/`,
  /**
   * An advertiser's CRM Event Sets (the `event_source_id` of `crm` events, §1.1), not paged, at most 50 per advertiser:
   * query `advertiser_id` (optional `event_set_ids`, `name`), answer `data.crm_event_sets[]` of `event_set_id`, `name`,
   * `create_time`. One source, UNVERIFIED: bububa/tiktok-business @ 051f6c0 `api/event/crm_list.go`,
   * `model/event/crm_list.go` (translated TikTok docs; TikTok's SDK has no CRM endpoint). Needs "Read CRM Event Sets".
   */
  crmList: `/open_api/${TIKTOK_API_VERSION}/crm/list/`,
  /** Entity endpoints for names and status. §7.4 [V2] SDK, GO, AB. */
  campaignGet: `/open_api/${TIKTOK_API_VERSION}/campaign/get/`,
  adgroupGet: `/open_api/${TIKTOK_API_VERSION}/adgroup/get/`,
  adGet: `/open_api/${TIKTOK_API_VERSION}/ad/get/`,
  /** Synchronous report. §7 [V2] SDK report_integrated_get.yml, GO, AB. */
  reportIntegrated: `/open_api/${TIKTOK_API_VERSION}/report/integrated/get/`,
} as const;

/** The advertiser authorization page. §8 "Authorization URL" [V2] GO core/const.go, Kleene doc. */
export const TIKTOK_DEFAULT_AUTH_URL = 'https://business-api.tiktok.com/portal/auth';

/** Header carrying the access token; NOT `Authorization: Bearer`. §0 "Auth header" [V2]. */
export const TIKTOK_ACCESS_TOKEN_HEADER = 'Access-Token';

export const TIKTOK_LIMITS = {
  /** Events per `event/track` request; more rejects the whole request. §1.1 `data` [V2] GO, RS maxBatchSizeV2, Hightouch. */
  maxEventsPerTrackRequest: 1000,
  /** `event/track` rate: 1,000 QPS / 600,000 QPM / 86,400,000 QPD at every app tier. §2.4 [V2] RS README, AE. */
  trackRequestsPerSecond: 1000,
  trackRequestsPerMinute: 600_000,
  trackRequestsPerDay: 86_400_000,
  /** Same (event_source_id, event, event_id) within this window is counted once. §5 [V2] HC-DEDUP, taggrs. */
  dedupWindowHours: 48,
  /** `request_id`: 14-digit UTC timestamp + 20 upper-case hex. §0 [V2] STAPE #10, GO fixture, airbyte #11375. */
  requestIdLength: 34,
  /** `report/integrated/get` and the entity endpoints: `page_size` 1–1000. §7.1, §7.4 [V2] SDK yml, GO, AB. */
  maxReportPageSize: 1000,
  maxEntityPageSize: 1000,
  /** `pixel/list`: `page_size` 1–20. §8 [V2] SDK pixel_list.yml, GO. */
  maxPixelPageSize: 20,
  /** Days per report request with the `stat_time_day` dimension; more answers 40002. §7.1 [V2] GO, SeaTunnel, AB. */
  maxDaysPerDailyReport: 30,
} as const;

/**
 * Our own choice, not a TikTok figure: how long one call may take before it counts as a retryable timeout.
 * TikTok documents no server-side deadline (§11 lists what is unverified).
 */
export const TIKTOK_DEFAULT_TIMEOUT_MS = 10_000;

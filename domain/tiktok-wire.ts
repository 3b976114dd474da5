/**
 * Wire types of TikTok's Events API 2.0 (`POST /open_api/v1.3/event/track/`) and of the response envelope shared
 * by every Marketing API endpoint. Field facts: /work/shared/reference/tiktok-api.md §1 and §2.1.
 */
import type { TikTokContent } from '../sdk/src/rules/tiktok-properties.js';

export type TikTokEventSource = 'web' | 'app' | 'offline' | 'crm';

/** One or more values; hashed fields take either form (§1.3 [V2] GO, SEG, HELPER). */
export type OneOrMany<T> = T | T[];

/** §1.3. Hashed fields carry SHA-256 lower-case hex (64 characters) of the normalised value (§3). */
export interface TikTokUser {
  /** SHA-256 of the trimmed, lower-cased email. */
  email?: OneOrMany<string>;
  /** SHA-256 of the E.164 number with its leading `+`. */
  phone?: OneOrMany<string>;
  /** SHA-256 of the trimmed value. */
  external_id?: OneOrMany<string>;
  /** Advanced matching (§1.3): SHA-256 of the lower-cased name without spaces or punctuation. */
  first_name?: string;
  last_name?: string;
  /** Lower-cased city, state or region without spaces or punctuation, NOT hashed (advanced-matching.ts says why). */
  city?: string;
  state?: string;
  /** ISO 3166-1 alpha-2 code, lower-case, NOT hashed. */
  country?: string;
  /** SHA-256 of the postal code, lower-case, without spaces or dashes. */
  zip_code?: string;
  /** Click id from the landing URL (`E.C.P.…`, can exceed 300 characters); never hashed. */
  ttclid?: string;
  /** Value of the `_ttp` first-party cookie; never hashed. */
  ttp?: string;
  ip?: string;
  user_agent?: string;
  /** BCP 47, e.g. `en-US`. */
  locale?: string;
  /** App events (§1.3 [V1]/[V2] GO, RS). */
  idfa?: string;
  idfv?: string;
  gaid?: string;
  att_status?: 'AUTHORIZED' | 'DENIED' | 'NOT_DETERMINED' | 'RESTRICTED' | 'NOT_APPLICABLE';
}

export interface TikTokPage {
  url: string;
  referrer?: string;
}

/** §1.4. Custom keys are accepted besides the documented ones. */
export interface TikTokProperties {
  /** Total value of the event, a plain number. */
  value?: number;
  /** ISO 4217 code. */
  currency?: string;
  content_type?: 'product' | 'product_group';
  contents?: TikTokContent[];
  content_ids?: string[];
  num_items?: number;
  order_id?: string;
  shop_id?: string;
  description?: string;
  search_string?: string;
  [custom: string]: unknown;
}

/** Required for `event_source: 'app'` (§1.2 [V2]). */
export interface TikTokApp {
  app_id: string;
  app_name?: string;
  app_version?: string;
}

/** Required for `event_source: 'crm'` (§1.2 [V2]): the CRM's record of the lead, and the CRM's name (e.g. `HubSpot`). */
export interface TikTokLead {
  lead_id: string;
  lead_event_source?: string;
}

/** §1.2. */
export interface TikTokEvent {
  /** Standard (e.g. `CompletePayment`) or custom event name, sent verbatim. */
  event: string;
  /** Unix time in whole seconds, UTC. */
  event_time: number;
  /** Deduplication key shared with the browser pixel (§5). */
  event_id?: string;
  user?: TikTokUser;
  page?: TikTokPage;
  properties?: TikTokProperties;
  app?: TikTokApp;
  lead?: TikTokLead;
  limited_data_use?: boolean;
}

/** §1.1. */
export interface TikTokTrackRequest {
  event_source: TikTokEventSource;
  /** Pixel code for `web`, app id for `app`, event set id for `offline`/`crm`. Always a JSON string. */
  event_source_id: string;
  /** Routes the request to Events Manager's Test Events view (§6). */
  test_event_code?: string;
  /** 1 to 1,000 events; one invalid event fails the whole request. */
  data: TikTokEvent[];
}

/** §2.1. `data` is `{}` on errors and may be absent altogether. */
export interface TikTokEnvelope<TData> {
  code: number;
  message: string;
  request_id?: string;
  data?: TData;
}

/** `event/track` returns no documented payload (§11). */
export type TikTokTrackResponseData = Record<string, unknown>;

import { TIKTOK_DEFAULT_TIMEOUT_MS, TIKTOK_PATHS } from './config';
import type {
  TikTokAccessTokenData,
  TikTokAccessTokenRequest,
  TikTokAdvertiserInfoData,
  TikTokAdvertiserListData,
  TikTokAppCredentials,
  TikTokCrmEventSetListData,
  TikTokEntityKind,
  TikTokEntityListData,
  TikTokEntityQuery,
  TikTokOfflineEventSetListData,
  TikTokPixelListData,
  TikTokPixelQuery,
  TikTokReportData,
  TikTokReportQuery,
} from './marketing-types';
import { callTikTok, type TikTokCallRecord, type TikTokTransport } from './request';
import type { TikTokCallResult } from './result';
import type { TikTokTrackRequest, TikTokTrackResponseData } from '../../domain/tiktok-wire';

export interface TikTokClientOptions {
  /** API host without path, e.g. `https://business-api.tiktok.com` or the local fake's `url`. Required. */
  baseUrl: string;
  /** Deadline of one call in milliseconds, including reading the body. Default: 10,000. */
  timeoutMs?: number;
  /** Fetch implementation. Default: Node's global `fetch`. */
  fetch?: typeof fetch;
  /** Told of every call once it has ended (the worker's metrics). */
  onCall?: (call: TikTokCallRecord) => void;
}

/** Every method resolves for every remote outcome (see result.ts); none throws for a TikTok or network failure. */
export interface TikTokClient {
  /** `POST /open_api/v1.3/event/track/` with up to 1,000 events. */
  trackEvents(accessToken: string, body: TikTokTrackRequest): Promise<TikTokCallResult<TikTokTrackResponseData>>;
  /** `POST /oauth2/access_token/`: trades the single-use `auth_code` of the OAuth callback for a long-term token. */
  exchangeAuthCode(request: TikTokAccessTokenRequest): Promise<TikTokCallResult<TikTokAccessTokenData>>;
  /** `GET /oauth2/advertiser/get/`: the advertisers this token may use. */
  listAdvertisers(accessToken: string, app: TikTokAppCredentials): Promise<TikTokCallResult<TikTokAdvertiserListData>>;
  /** `GET /advertiser/info/`: account details (name, currency, time zone) of the given advertisers. */
  getAdvertiserInfo(accessToken: string, advertiserIds: readonly string[], fields: readonly string[]): Promise<TikTokCallResult<TikTokAdvertiserInfoData>>;
  /** `GET /pixel/list/`, one page (page_size 1–20). */
  listPixels(accessToken: string, query: TikTokPixelQuery): Promise<TikTokCallResult<TikTokPixelListData>>;
  /** `GET /offline/get/`: the advertiser's Offline Event Sets, all at once. */
  listOfflineEventSets(accessToken: string, advertiserId: string): Promise<TikTokCallResult<TikTokOfflineEventSetListData>>;
  /** `GET /crm/list/`: the advertiser's CRM Event Sets, all at once. */
  listCrmEventSets(accessToken: string, advertiserId: string): Promise<TikTokCallResult<TikTokCrmEventSetListData>>;
  /** `GET /campaign/get/`, `/adgroup/get/` or `/ad/get/`, one page (page_size 1–1000). */
  getEntities(accessToken: string, kind: TikTokEntityKind, query: TikTokEntityQuery): Promise<TikTokCallResult<TikTokEntityListData>>;
  /** `GET /report/integrated/get/` (BASIC, AUCTION), one page (page_size 1–1000). */
  getReport(accessToken: string, query: TikTokReportQuery): Promise<TikTokCallResult<TikTokReportData>>;
}

const ENTITY_PATHS: Record<TikTokEntityKind, string> = {
  campaign: TIKTOK_PATHS.campaignGet,
  adgroup: TIKTOK_PATHS.adgroupGet,
  ad: TIKTOK_PATHS.adGet,
};

export function createTikTokClient(options: TikTokClientOptions): TikTokClient {
  const transport = resolveTransport(options);
  return {
    trackEvents: (accessToken, body) =>
      callTikTok<TikTokTrackResponseData>(transport, { method: 'POST', path: TIKTOK_PATHS.eventTrack, accessToken, body }),

    exchangeAuthCode: (request) =>
      callTikTok<TikTokAccessTokenData>(transport, { method: 'POST', path: TIKTOK_PATHS.oauthAccessToken, body: request }),

    listAdvertisers: (accessToken, app) =>
      callTikTok<TikTokAdvertiserListData>(transport, {
        method: 'GET',
        path: TIKTOK_PATHS.oauthAdvertisers,
        accessToken,
        query: { app_id: app.appId, secret: app.secret },
      }),

    getAdvertiserInfo: (accessToken, advertiserIds, fields) =>
      callTikTok<TikTokAdvertiserInfoData>(transport, {
        method: 'GET',
        path: TIKTOK_PATHS.advertiserInfo,
        accessToken,
        query: { advertiser_ids: advertiserIds, fields },
      }),

    listPixels: (accessToken, query) =>
      callTikTok<TikTokPixelListData>(transport, {
        method: 'GET',
        path: TIKTOK_PATHS.pixelList,
        accessToken,
        query: { advertiser_id: query.advertiserId, page: query.page, page_size: query.pageSize },
      }),

    listOfflineEventSets: (accessToken, advertiserId) =>
      callTikTok<TikTokOfflineEventSetListData>(transport, { method: 'GET', path: TIKTOK_PATHS.offlineGet, accessToken, query: { advertiser_id: advertiserId } }),

    listCrmEventSets: (accessToken, advertiserId) =>
      callTikTok<TikTokCrmEventSetListData>(transport, { method: 'GET', path: TIKTOK_PATHS.crmList, accessToken, query: { advertiser_id: advertiserId } }),

    getEntities: (accessToken, kind, query) =>
      callTikTok<TikTokEntityListData>(transport, {
        method: 'GET',
        path: ENTITY_PATHS[kind],
        accessToken,
        query: {
          advertiser_id: query.advertiserId,
          page: query.page,
          page_size: query.pageSize,
          ...(query.fields ? { fields: query.fields } : {}),
          ...(query.filtering ? { filtering: query.filtering } : {}),
        },
      }),

    getReport: (accessToken, query) =>
      callTikTok<TikTokReportData>(transport, {
        method: 'GET',
        path: TIKTOK_PATHS.reportIntegrated,
        accessToken,
        query: {
          advertiser_id: query.advertiserId,
          report_type: 'BASIC',
          service_type: 'AUCTION',
          data_level: query.dataLevel,
          dimensions: query.dimensions,
          metrics: query.metrics,
          start_date: query.startDate,
          end_date: query.endDate,
          page: query.page,
          page_size: query.pageSize,
          ...(query.filtering ? { filtering: query.filtering } : {}),
        },
      }),
  };
}

function resolveTransport(options: TikTokClientOptions): TikTokTransport {
  if (!URL.canParse(options.baseUrl) || !/^https?:$/.test(new URL(options.baseUrl).protocol)) {
    throw new TypeError(`TikTok client: baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  const timeoutMs = options.timeoutMs ?? TIKTOK_DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`TikTok client: timeoutMs must be a positive integer, got ${timeoutMs}`);
  }
  return { baseUrl: options.baseUrl, timeoutMs, fetch: options.fetch ?? globalThis.fetch, onCall: options.onCall };
}
